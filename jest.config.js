/** Tests run through @swc/jest (no type-check: `npm run typecheck` does that). */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/test", "<rootDir>/examples"],
  testMatch: ["**/*.test.ts"],
  transform: { "^.+\\.(t|j)sx?$": ["@swc/jest", { jsc: { target: "es2022" } }] },
  setupFiles: ["<rootDir>/test/helpers/env.ts"],
  testSequencer: "<rootDir>/test/helpers/sequencer.js",
  testTimeout: 30000,
  // Many suites wait (the retention scenario sleeps ~60 s, others wait on emulators and child processes), so
  // three workers keep two cores busy: ~80 s instead of ~105 s with two, measured on this project's machine.
  maxWorkers: 3,
};
