/**
 * The preflight judges what it lists: every listed quota against the capacity plan at --rate, IAM's and DynamoDB's
 * account quotas against what the stack adds, Lambda's memory on a new account, and the caller's own rights against
 * the deployer policy (iam:SimulatePrincipalPolicy), each against a stand-in answering as AWS does.
 */
import { ACCOUNT, ACCOUNT_ID, removeStackFiles, run, stackFile } from "./run";

afterAll(() => removeStackFiles());

const STATES_QUOTAS = [
  { code: "L-SYNCBUCKET", name: "StartSyncExecution throttle token bucket size", value: 10 },
  { code: "L-SYNCREFILL", name: "StartSyncExecution throttle token refill rate per second", value: 5 },
  { code: "L-TRANSITION", name: "StateTransition throttle token bucket size", value: 5000 },
];

describe("CLI: npm run preflight judges the quotas it lists against the capacity plan", () => {
  it("fails a StartSyncExecution refill rate below what --rate needs, with the need, the request and the re-plan", async () => {
    const { code, out } = await run(["--stack-file", stackFile(), "--rate", "100"], { ...ACCOUNT, quotas: new Map([...ACCOUNT.quotas, ["states", STATES_QUOTAS]]) });
    expect(code).toBe(1);
    expect(out).toMatch(/✘ states L-SYNCREFILL "StartSyncExecution throttle token refill rate per second": 5 is below what the plan needs: StartSyncExecution rate needs [\d.,]+ at 100 msg\/s with 20% headroom\. Fix: request ≥ \d+, or plan a lower rate \(npx effectively-once capacity --rate N --quota sfn\.syncStartRate=5\)/);
    expect(out).toMatch(/✘ states L-SYNCBUCKET "StartSyncExecution throttle token bucket size": 10 is below what the plan needs/);
    expect(out).toMatch(/✔ lambda L-B99A9384 "Concurrent executions": 1,000: Lambda: account concurrency needs [\d.,]+ at 100 msg\/s/);
    // Shown, but not judged: the plan has no part for it.
    expect(out).toContain('· states L-TRANSITION "StateTransition throttle token bucket size": 5,000 (not judged: the capacity plan has no part for it)');
  });

  it("passes the same quotas at a rate they hold, and without --rate warns where they are below the plan's defaults", async () => {
    const state = { ...ACCOUNT, quotas: new Map([...ACCOUNT.quotas, ["states", STATES_QUOTAS]]) };
    const low = await run(["--stack-file", stackFile(), "--rate", "1"], state);
    expect(low.out).toMatch(/✔ states L-SYNCREFILL "StartSyncExecution throttle token refill rate per second": 5: StartSyncExecution rate needs 0\.\d+ at 1 msg\/s/);
    const unjudged = await run(["--stack-file", stackFile()], state);
    expect(unjudged.code).toBe(0);
    expect(unjudged.out).toContain('! states L-SYNCBUCKET "StartSyncExecution throttle token bucket size": 10 is below the 6,000 the capacity plan assumes: pass --rate N to judge it');
  });
});

describe("CLI: npm run preflight judges the account's IAM, DynamoDB and Lambda quotas", () => {
  it("fails when the stack's four new roles do not fit under the account's role quota", async () => {
    const { code, out } = await run(["--stack-file", stackFile()], { ...ACCOUNT, summary: new Map([["Roles", 997], ["RolesQuota", 1000], ["RolePolicySizeQuota", 10240]]) });
    expect(code).toBe(1);
    expect(out).toContain("✘ IAM roles: 997 of 1000 exist and the stack adds 4: CreateRole would fail (LimitExceeded)");
    expect(out).toMatch(/✔ IAM role test-charge-us-east-1-role: inline policies \d+ of 10240 characters/);
  });

  it("fails an inline policy over the account's role policy size quota", async () => {
    const { code, out } = await run(["--stack-file", stackFile()], { ...ACCOUNT, summary: new Map([["Roles", 1], ["RolesQuota", 1000], ["RolePolicySizeQuota", 500]]) });
    expect(code).toBe(1);
    expect(out).toMatch(/✘ IAM role test-workflow-us-east-1-role: inline policies of \d+ characters exceed the account's 500: PutRolePolicy would fail/);
  });

  it("fails when the region's tables and the stack's new ones pass the table quota Service Quotas lists", async () => {
    const quotas = new Map([...ACCOUNT.quotas, ["dynamodb", [{ code: "L-F98FE922", name: "Maximum number of tables", value: 2500 }]]]);
    const full = await run(["--stack-file", stackFile()], { ...ACCOUNT, quotas, tables: 2498 });
    expect(full.code).toBe(1);
    expect(full.out).toContain("✘ DynamoDB tables: 2498 exist and the stack adds 3, over the region's 2500 (L-F98FE922)");
    const room = await run(["--stack-file", stackFile()], { ...ACCOUNT, quotas, tables: 2497 });
    expect(room.out).toContain("✔ DynamoDB tables: 2497 + 3 new ≤ 2500 (L-F98FE922)");
  });

  it("warns about the function's memory on a new account (concurrency below the default), which no API reports", async () => {
    const { out } = await run(["--stack-file", stackFile()], { ...ACCOUNT, concurrentExecutions: 10, unreservedConcurrentExecutions: 10 });
    expect(out).toMatch(/! test-charge: \d+ MB of memory\. This account's concurrency \(10 < 1000\) marks a new account, which has a reduced memory quota that no API reports/);
  });
});

describe("CLI: npm run preflight simulates the caller's rights against the deployer policy", () => {
  const assumed = { ...ACCOUNT, callerArn: `arn:aws:sts::${ACCOUNT_ID}:assumed-role/deployer/ci-run-42`, roles: new Map([["deployer", `arn:aws:iam::${ACCOUNT_ID}:role/ci/deployer`]]) };

  it("simulates an assumed-role caller as its role (with its path) and passes when everything is allowed", async () => {
    const { code, out, seen } = await run(["--stack-file", stackFile()], assumed);
    expect(code).toBe(0);
    expect(seen).toContain("iam:GetRole deployer");
    expect(seen.filter((c) => c.startsWith("iam:SimulatePrincipalPolicy"))).toEqual(expect.arrayContaining([`iam:SimulatePrincipalPolicy arn:aws:iam::${ACCOUNT_ID}:role/ci/deployer`]));
    expect(out).toMatch(/✔ deployer rights: arn:aws:iam::123456789012:role\/ci\/deployer may make all \d+ simulated calls of the deployer policy \(session policies are not evaluated\)/);
  });

  it("fails each denied call, naming an SCP or the permissions boundary as the cause", async () => {
    const denied = new Map([["iam:CreateRole", "scp"], ["sqs:CreateQueue", "boundary"], ["states:CreateStateMachine", "identity"]] as const);
    const { code, out } = await run(["--stack-file", stackFile()], { ...assumed, denied });
    expect(code).toBe(1);
    expect(out).toMatch(/✘ deployer rights: arn:aws:iam::123456789012:role\/ci\/deployer may not iam:CreateRole on arn:aws:iam::123456789012:role\/test-charge-us-east-1-role: an SCP of the organization denies it/);
    expect(out).toMatch(/may not sqs:CreateQueue on arn:aws:sqs:us-east-1:123456789012:test-queue: the caller's permissions boundary denies it/);
    expect(out).toMatch(/may not states:CreateStateMachine on .*: no policy of the caller allows it/);
    expect(out).toMatch(/· deployer rights: \d+ of \d+ calls denied\. Fix: attach the policy `npx effectively-once deployer-policy` writes/);
  });

  it("does not simulate the root user, and says why", async () => {
    const { out, seen } = await run(["--stack-file", stackFile()], { ...ACCOUNT, callerArn: `arn:aws:iam::${ACCOUNT_ID}:root` });
    expect(out).toContain("! deployer rights not simulated: the caller is the account's root user");
    expect(seen.some((c) => c.startsWith("iam:SimulatePrincipalPolicy"))).toBe(false);
  });
});
