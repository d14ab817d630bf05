// The one jest configuration every project shares: the root's (cross-cutting suites in test/, the examples' tests)
// and each workspace's (<workspace>/test, run alone with `npm test -w <workspace>`). Tests run through @swc/jest (no
// type-check: `npm run typecheck` does that). The tier comes from TEST_TIER: the fast one by default (`npm test`),
// `slow` for `npm run test:slow`, `alone` for `npm run test:alone`; test/tiers.js lists what is slow and what runs alone.
const path = require("node:path");
const { SLOW, ALONE } = require("./test/tiers");

const ROOT = __dirname;
/** test/tiers.js's patterns are repository paths: anchored here, so one pattern names one place. */
const anchored = (patterns) => patterns.map((pattern) => `^${ROOT.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/(?:${pattern})`);
const slowPaths = anchored(SLOW);
const alonePaths = anchored(ALONE);
/** The suites of a tier: `only` these, none of `ignored`. */
const tierOf = (only, ignored) => ({ testRegex: only.map((p) => `(?=${p}).*\\.test\\.ts$`), testPathIgnorePatterns: ["/node_modules/", ...ignored] });
const TIERS = new Map([
  ["slow", tierOf(slowPaths, [])],
  ["alone", tierOf(alonePaths, [])],
]);

/** Dependencies that run in the simulation's inner loops (JSONata, the AWS SDK, dynalite's store, fast-check's generators): their globals bound. */
const HOT_DEPENDENCIES = ["jsonata", "fast-check", "@smithy", "@aws-sdk", "@aws-lambda-powertools", "dynalite", "abstract-level", "memory-level", "level-transcoder"];

/** One project: `dir` is the repository root or a workspace folder; `roots` are searched for `*.test.ts`. */
function project(dir, roots = ["<rootDir>/test"]) {
  const name = path.relative(ROOT, dir) || "root";
  const tier = TIERS.get(process.env.TEST_TIER ?? "") ?? { testMatch: ["**/*.test.ts"], testPathIgnorePatterns: ["/node_modules/", ...slowPaths, ...alonePaths] };
  return {
    displayName: name,
    rootDir: dir,
    // jest's node environment, minus Node ≥ 25's localStorage warning in every worker (test/jest/node-environment.js).
    testEnvironment: path.join(ROOT, "test/jest/node-environment.js"),
    roots,
    ...tier,
    transform: { "^.+\\.(t|j)sx?$": [path.join(ROOT, "test/jest/intrinsics.js"), { jsc: { target: "es2022" } }] },
    // The hot dependencies of the simulation and the local cloud get the intrinsics bound too (test/jest/intrinsics.js).
    transformIgnorePatterns: [`/node_modules/(?!(?:${HOT_DEPENDENCIES.join("|")})/)`],
    // jest's own helper libraries (semver, source-map, pure-rand, the glob matchers…) once per worker (test/jest/runtime.js).
    runtime: path.join(ROOT, "test/jest/runtime.js"),
    setupFiles: [path.join(ROOT, "test/jest/env.ts")],
    setupFilesAfterEnv: [path.join(ROOT, "test/jest/stack-traces.ts"), path.join(ROOT, "test/jest/test-name-storage.ts")],
    // The workspace packages by name, from source: each package.json's "exports" maps an entry to its .ts file under
    // the "@effectively-once/source" condition (tsconfig.json's customConditions says the same to tsc, .npmrc to tsx).
    testEnvironmentOptions: { customExportConditions: ["node", "node-addons", "@effectively-once/source"] },
  };
}

/** What applies to a whole run, not to one project. */
const RUN = {
  testSequencer: path.join(ROOT, "test/jest/sequencer.js"),
  // Many suites wait (on emulators, child processes and worker threads), so more workers than cores keep both cores
  // busy: on the 2-core machine the default tier took 115 s with three workers and 92 s with four (Node 26, one run
  // each; six took 95 s). The slow tier keeps three: its end-to-end suites hold real-time windows on the shared cores.
  maxWorkers: process.env.TEST_TIER ? 3 : 4,
  // A run-wide option: jest ignores it inside a project, where the default 5 s would then apply.
  testTimeout: 30000,
  // The default tier synthesizes each distinct test stack once per run and shares it read-only (packages/testing/src/
  // synth.ts); the slow tier's terraform runs write into their stack's folder, so each of its suites synthesizes its own.
  ...(process.env.TEST_TIER ? {} : { globalSetup: path.join(ROOT, "test/jest/synth-cache-setup.js"), globalTeardown: path.join(ROOT, "test/jest/synth-cache-teardown.js") }),
};

/** A workspace's own jest.config.js: its tests alone. */
function workspaceConfig(dir) {
  return { ...project(dir), ...RUN };
}

module.exports = { ROOT, project, workspaceConfig, RUN };
