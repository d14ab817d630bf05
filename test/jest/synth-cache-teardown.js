// Removes the run's folder of shared synths (synth-cache-setup.js made it).
const { rmSync } = require("node:fs");

module.exports = async function teardown() {
  if (process.env.PIPELINE_TEST_SYNTHS) rmSync(process.env.PIPELINE_TEST_SYNTHS, { recursive: true, force: true });
};
