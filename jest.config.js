/** `npm test`: every workspace's tests, the simulation's (tools/sim/test) and the cross-cutting suites (test/, the examples), fast tier (jest.preset.js). */
const fs = require("node:fs");
const path = require("node:path");
const { project, RUN, ROOT } = require("./jest.preset");
const { workspaces } = require("./package.json");

module.exports = {
  projects: [project(ROOT, ["<rootDir>/test", "<rootDir>/tools/sim/test", "<rootDir>/examples"]), ...workspaces.filter((dir) => fs.existsSync(path.join(ROOT, dir, "test"))).map((dir) => project(path.join(ROOT, dir)))],
  ...RUN,
};
