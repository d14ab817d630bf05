// The default tier's run-wide folder of shared synths (packages/testing/src/synth.ts), made before the workers start so
// that every worker inherits PIPELINE_TEST_SYNTHS; synth-cache-teardown.js removes it when the run ends.
const { mkdtempSync } = require("node:fs");
const { tmpdir } = require("node:os");
const { join } = require("node:path");

module.exports = async function setup() {
  process.env.PIPELINE_TEST_SYNTHS = mkdtempSync(join(tmpdir(), "pipeline-test-synths-"));
};
