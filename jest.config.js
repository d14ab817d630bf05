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
  // The workspace packages by name, from source: each package.json's "exports" maps an entry to its .ts file under
  // the "@effectively-once/source" condition (tsconfig.json's customConditions says the same to tsc, .npmrc to tsx).
  testEnvironmentOptions: { customExportConditions: ["node", "node-addons", "@effectively-once/source"] },
  testTimeout: 30000,
  // Many suites wait (on emulators and child processes), so three workers keep two cores busy.
  maxWorkers: 3,
};
