/** `npm test -w packages/testing`: this workspace's tests alone (jest.preset.js at the repository root; TEST_TIER=slow for the slow tier). */
module.exports = require("../../jest.preset").workspaceConfig(__dirname);
