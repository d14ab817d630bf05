// Which suites `npm test` leaves to `npm run test:slow` (CI runs both, see .ci/run). `npm test` stays the fast proof:
// unit and contract tests, the state machine, the simulation's budget, the infrastructure without the terraform CLI,
// the local cloud's parts and the end-to-end smoke of published messages. What moves here waits on something that
// takes seconds whatever the code does: the terraform CLI, child processes (tsx, npm, boto3, the AWS CLI), whole
// local clouds per scenario family, or a soak.
const SLOW_SUITES = [
  // terraform init/validate/plan: 3-4 s per command.
  "test/plan/terraform-plan.test.ts",
  "test/infra/terraform-validate.test.ts",
  // Child processes: `npm start`, Ctrl-C handling, the sfn CLI, real SQS clients (boto3, AWS CLI), the CLIs spawned.
  "test/local/cloud/npm-start.test.ts",
  "test/local/cloud/ctrl-c.test.ts",
  "test/stepfunctions/cli.test.ts",
  "test/local/sqs/real-clients.test.ts",
  "test/ops/dlq.test.ts",
  "test/ops/safe-output.test.ts",
  // The soak and the end-to-end families beyond the smoke (test/e2e/delivery stays in `npm test`).
  "test/load/soak.test.ts",
  "test/e2e/failures.test.ts",
  "test/e2e/redelivery.test.ts",
  "test/e2e/hostile.test.ts",
  "test/e2e/aws-target.test.ts",
  // moto's server.
  "test/rehearse/moto-gaps.test.ts",
  // A whole local cloud booted for one property (the e2e smoke and the retention scenario keep one in `npm test`),
  // and function bundles run in worker threads.
  "test/local/cloud/mocked-downstream.test.ts",
  "test/cost/path-calls.test.ts",
  "test/local/lambda/side-effects.test.ts",
];

/** Jest path patterns (regular expressions) of the slow suites. */
const SLOW_PATTERNS = SLOW_SUITES.map((path) => `<rootDir>/${path.replace(/[.]/g, "\\.")}$`);

module.exports = { SLOW_SUITES, SLOW_PATTERNS };
