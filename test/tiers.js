// The two tiers of the suite, one list of repository paths (regular expressions, anchored at the repository root):
// `npm test` runs everything but these (the fast proof: unit, contract, state machine, construct, the simulation's
// fixed budget, one published message end to end), `npm run test:slow` runs only these, `npm run test:alone` the ALONE ones (whole local clouds, real
// child processes and clients, terraform). `.ci/run` runs both.
const SLOW = [
  "test/e2e/(?!smoke)",
  "packages/cli/test/plan/terraform-plan",
  "packages/cli/test/stack/terraform-(validate|pass-through)",
  "packages/local-cloud/test/sqs/real-clients",
  "test/start/",
  "packages/local-cloud/test/cloud/(mocked-downstream|sync-execution-logs)",
  "packages/local-cloud/test/alarms/(on-call|function-errors)",
  "packages/local-cloud/test/lambda/side-effects",
  "packages/cli/test/load/soak",
  "packages/local-cloud/test/load/soak",
  "test/public-api/",
  "packages/cli/test/verify/(end-to-end|probe-stack-terraform|fifo|json)",
  "packages/cli/test/stepfunctions/cli",
  "packages/local-cloud/test/stepfunctions/test-state/aws-cli",
  "packages/ops/test/(dlq|ledger-trace|safe-output|dlq-redrive-safety|dlq-redrive-direct|target)\\.",
  "packages/cli/test/cost/path-calls",
  "packages/cli/test/rehearse/(front|moto-gaps|cli)\\.",
  "examples/[^/]+/test/bundle",
  // Checks of the tooling rather than of the guarantee, each over the whole repository or a long draw; CI also runs
  // the checks themselves (npm run lint:layout, npm run lint:paths).
  "test/layout/unused-exports",
  "test/docs/doc-paths",
  "packages/cli/test/deployer/deployer-policy",
  "packages/cli/test/stack/iam-simulated",
  "tools/sim/test/(fuzz/coverage|oracle/allowance-mutants|cli-help)\\.",
  "packages/local-cloud/test/load/generator",
  "packages/ops/test/cli\\.",
];

// Suites that measure throughput in real time: `npm run test:alone` runs them one at a time (CI after the slow tier), so
// that no other suite shares the cores they measure (held-to-evidence's knee fell 30 % beside the terraform plans).
const ALONE = ["packages/cli/test/capacity/held-to-evidence"];

module.exports = { SLOW, ALONE };
