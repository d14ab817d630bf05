/**
 * Tests run through @swc/jest (no type-check: `npm run typecheck` does that). Two projects: `fast` is `npm test`
 * (the proof a change needs), `slow` is `npm run test:slow` (suites that wait on the terraform CLI, child processes,
 * whole local clouds or a soak; see test/helpers/suites.js). CI runs both; `npx jest <path>` runs a file wherever it is.
 */
const { SLOW_PATTERNS } = require("./test/helpers/suites");

const common = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  transform: { "^.+\\.(t|j)sx?$": ["@swc/jest", { jsc: { target: "es2022" } }] },
  setupFiles: ["<rootDir>/test/helpers/env.ts"],
};

module.exports = {
  testSequencer: "<rootDir>/test/helpers/sequencer.js",
  testTimeout: 30000,
  // Suites that wait (emulators, child processes) leave cores idle, so three workers keep two cores busy.
  maxWorkers: 3,
  projects: [
    { ...common, displayName: "fast", testPathIgnorePatterns: ["/node_modules/", ...SLOW_PATTERNS] },
    { ...common, displayName: "slow", testRegex: SLOW_PATTERNS.map((p) => p.replace("<rootDir>/", "")), testMatch: undefined },
  ],
};
