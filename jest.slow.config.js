/** `npm run test:slow`: the suites test/tiers.js lists (whole local clouds, child processes, terraform), in every project. */
process.env.TEST_TIER = "slow";
module.exports = require("./jest.config");
