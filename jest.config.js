/** Tests run through @swc/jest (no type-check: `npm run typecheck` does that). `npm test`: the fast tier (test/tiers.js). */
const { SLOW } = require("./test/tiers");

module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/test", "<rootDir>/examples"],
  testMatch: ["**/*.test.ts"],
  testPathIgnorePatterns: ["/node_modules/", ...SLOW],
  transform: { "^.+\\.(t|j)sx?$": ["@swc/jest", { jsc: { target: "es2022" } }] },
  setupFiles: ["<rootDir>/test/helpers/env.ts"],
  testSequencer: "<rootDir>/test/helpers/sequencer.js",
  // The workspace packages by name, from source (tsconfig.json's "paths" say the same to tsc, tsx and esbuild).
  moduleNameMapper: {
    "^@effectively-once/pipeline$": "<rootDir>/packages/pipeline/src/index.ts",
    "^@effectively-once/pipeline/handler$": "<rootDir>/packages/pipeline/handler/index.ts",
    "^@effectively-once/pipeline/internal/(.*)$": "<rootDir>/packages/pipeline/$1",
    "^@effectively-once/local-cloud$": "<rootDir>/packages/local-cloud/src/index.ts",
    "^@effectively-once/local-cloud/harness$": "<rootDir>/packages/local-cloud/src/harness/index.ts",
  },
  testTimeout: 30000,
  // Many suites wait (on emulators and child processes), so three workers keep two cores busy.
  maxWorkers: 3,
};
