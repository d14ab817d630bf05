/** `npm run test:alone`: the suites test/tiers.js lists as ALONE (real-time throughput), one at a time. */
process.env.TEST_TIER = "alone";
module.exports = { ...require("./jest.config"), maxWorkers: 1 };
