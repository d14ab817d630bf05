// The two tiers of the suite, one list: `npm test` runs everything but these (the fast proof: unit, contract, state
// machine, construct, the simulation's fixed budget, one published message end to end), `npm run test:slow` runs
// only these (whole local clouds, real child processes and clients, terraform). `.ci/run` runs both.
const SLOW = [
  "test/e2e/(?!smoke)",
  "test/plan/terraform-plan",
  "test/infra/terraform-validate",
  "test/local/sqs/real-clients",
  "test/local/cloud/(npm-start|ctrl-c|every-example|mocked-downstream|sync-execution-logs)",
  "test/local/lambda/side-effects",
  "test/load/soak",
  "test/public-api/",
  "test/verify/(end-to-end|probe-stack-terraform|fifo)",
  "test/stepfunctions/cli",
  "test/stepfunctions/test-state/aws-cli",
  "test/ops/(dlq|ledger-trace|safe-output|dlq-redrive-safety|target)\\.",
  "test/cost/path-calls",
  "test/capacity/held-to-evidence",
  "test/rehearse/(front|moto-gaps|cli)\\.",
  "examples/[^/]+/test/bundle",
];

module.exports = { SLOW };
