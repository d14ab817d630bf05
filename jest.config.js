/** Tests run through @swc/jest (no type-check: `npm run typecheck` does that). */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  transform: { "^.+\\.(t|j)sx?$": ["@swc/jest", { jsc: { target: "es2022" } }] },
  setupFiles: ["<rootDir>/test/helpers/env.ts"],
  testSequencer: "<rootDir>/test/helpers/sequencer.js",
  testTimeout: 30000,
  // Many suites wait on emulators and child processes rather than compute: two workers use both cores.
  maxWorkers: 2,
};
