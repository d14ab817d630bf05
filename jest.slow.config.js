/** `npm run test:slow`: the suites test/tiers.js lists (whole local clouds, child processes, terraform). */
const base = require("./jest.config");
const { SLOW } = require("./test/tiers");

const { testMatch: _all, testPathIgnorePatterns: _fast, ...rest } = base;
module.exports = { ...rest, testRegex: SLOW.map((p) => `^(?=.*${p}).*\\.test\\.ts$`), testPathIgnorePatterns: ["/node_modules/"] };
