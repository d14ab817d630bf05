/**
 * Settings the synth accepted before and AWS refuses at plan or apply (or accepts and then loses every message):
 * each is refused at synth, naming the prop, the value, the limit and the fix, and all in one error.
 */
import type { PipelineOverrides } from "../../src/app/pipeline-app";
import { TEST_STACK } from "@effectively-once/testing";
import { errorOf } from "@effectively-once/testing/stack";
import { build, warningsOf } from "./support/build";

/** Thirty payload fields with long names: their contract variables alone pass Lambda's 4 KB. */
const LONG_FIELDS = Array.from({ length: 30 }, (_, i) => `customer_supplied_reference_attribute_number_${String(i).padStart(2, "0")}_value`);

/** Forty added error names of a hundred characters: their variable alone passes Lambda's 4 KB. */
const LONG_ERROR_NAMES = Array.from({ length: 40 }, (_, i) => `${"E".repeat(97)}${String(i).padStart(3, "0")}`);

describe("Synth refuses what AWS refuses", () => {
  it.each<[string, PipelineOverrides, string, RegExp]>([
    ["a log retention CloudWatch Logs does not offer", { logRetentionDays: 10 }, "logRetentionDays", /use 7 or 14: one of 1, 3, 5, 7, 14, 30,.*AWS API model logs Days/],
    ["a function name with a character Lambda refuses", { function: { name: "charge.v2" } }, "function.name", /letters, digits, '-' or '_'/],
    ["an environment over Lambda's 4 KB", { payloadFields: LONG_FIELDS }, "fieldRules", /environment \d{4,} bytes as Lambda measures it.*over Lambda's 4096.*Fix: trim it by \d+ bytes/],
    ["a variable name Lambda refuses", { function: { environment: { "MY-SETTING": "x" } } }, "function.environment", /a letter, then at least one letter, digit or '_'.*MY_SETTING/],
    ["a variable the Lambda runtime defines", { function: { environment: { AWS_REGION: "eu-west-1" } } }, "function.environment", /the Lambda runtime defines/],
    ["a variable the construct sets itself", { function: { environment: { PAYLOAD_FIELDS: "[]" } } }, "function.environment", /the construct sets itself/],
    // Unset by these props, still the construct's: the team's value would reach the function as the contract's.
    ["the added error names' variable when the stack adds none", { function: { environment: { PIPELINE_REJECTION_ERRORS: '["TimeoutError"]' } } }, "function.environment", /the construct sets itself.*leaves unset on purpose.*set function\.permanentErrors or conflictErrors/],
    ["the batch concurrency's variable when invocations are one per record", { batchInvocation: false, function: { environment: { PIPELINE_BATCH_CONCURRENCY: "40" } } }, "function.environment", /the construct sets itself.*set maxConcurrency/],
    ["an empty added error name", { function: { permanentErrors: [""] } }, "function.permanentErrors", /is empty: the function refuses the PIPELINE_REJECTION_ERRORS/],
    ["an added error name Terraform would read as a template", { function: { conflictErrors: ["Lost${var.x}"] } }, "function.conflictErrors", /'\$\{' or '%\{'/],
    ["added error names that pass Lambda's 4 KB", { function: { permanentErrors: LONG_ERROR_NAMES } }, "function.permanentErrors", /over Lambda's 4096: function\.permanentErrors and conflictErrors \d{4}.*Fix: trim it by \d+ bytes: fewer or shorter added error names/],
    ["a reserved concurrency of 0", { function: { reservedConcurrency: 0 } }, "function.reservedConcurrency", /each message would be retried until the queue moves it to the DLQ.*stop the pipe/],
    ["a fractional reserved concurrency", { function: { reservedConcurrency: 2.5 } }, "function.reservedConcurrency", /whole number of at least 1/],
    ["a runtime the construct does not bundle for", { function: { runtime: "nodejs20.x" as never } }, "function.runtime", /nodejs22.x or nodejs24.x/],
    ["nodejs24.x on provider bindings for hashicorp/aws 5.100.0", { function: { runtime: "nodejs24.x" } }, "function.runtime", /needs hashicorp\/aws 6\.19\.0.*5\.100\.0.*\/cdktn entry.*offline provider mirror \(5\.100\.0\) cannot validate/],
    ["a log level Lambda's logging configuration does not take", { function: { logLevel: "VERBOSE" as never } }, "function.logLevel", /DEBUG, INFO, WARN, ERROR/],
    ["a state machine log level Step Functions does not take", { stateMachineLogLevel: "VERBOSE" as never }, "stateMachineLogLevel", /ALL, ERROR, FATAL, OFF/],
    ["five filter patterns (the construct adds a sixth)", { filterPatterns: Array.from({ length: 5 }, (_, i) => ({ body: { n: [i] } })) }, "filterPatterns", /at most 5, and the construct adds one.*"\$or" into at most 4/],
    ["a filter pattern over 4,096 characters", { filterPatterns: [{ body: { id: Array.from({ length: 400 }, (_, i) => `value-${i}`) } }] }, "filterPatterns[0]", /characters of JSON; a pipe's pattern holds at most 4096/],
    ["a filter pattern EventBridge does not accept", { filterPatterns: [{ body: { type: "order" } }] }, "filterPatterns[0]", /not an EventBridge event pattern/],
    ["six alarm actions", { alarmActions: Array.from({ length: 6 }, (_, i) => `arn:aws:sns:us-east-1:123456789012:t${i}`) }, "alarmActions", /at most 5/],
    ["an alarm action that is not an ARN", { alarmActions: ["ops-team@example.com"] }, "alarmActions", /not an ARN/],
    ["an output prefix Terraform refuses", { outputPrefix: "2nd pipeline " }, "outputPrefix", /start with a letter or '_'/],
    ["tracing given as text", { tracing: "yes" as never }, "tracing", /true or false/],
  ])("refuses %s, naming the prop, the value and the fix", (_case, overrides, prop, message) => {
    const error = errorOf(build(overrides));
    expect(error.problems.map((p) => p.prop)).toContain(prop);
    expect(error.message).toMatch(/Fix: /);
    expect(error.message).toMatch(message);
  });

  it("reports every problem in one error, and names the checks it could not run", () => {
    const error = errorOf(build({ logRetentionDays: 10, function: { name: "charge.v2", reservedConcurrency: 0 }, outputPrefix: "1" }));
    expect(error.problems.map((p) => p.prop).sort()).toEqual(["function.name", "function.reservedConcurrency", "logRetentionDays", "outputPrefix"]);
    // The derived names (and the environment, which holds one) wait for a valid function name.
    expect(error.skipped.map((s) => s.name)).toEqual(expect.arrayContaining(["resourceNames", "function.environment.size"]));
    expect(error.message).toMatch(/Not checked until those are fixed: resourceNames \(needs function\.name\)/);
  });

  it("accepts the limits themselves", () => {
    // 64 characters exactly for the role (test-<43>-us-east-1-role) and 4,096 bytes or less for the environment.
    expect(build({ function: { name: "a".repeat(64 - "test--us-east-1-role".length) } })).not.toThrow();
    expect(build({ logRetentionDays: 3653, function: { reservedConcurrency: 1 }, filterPatterns: Array.from({ length: 4 }, (_, i) => ({ body: { n: [i] } })) })).not.toThrow();
    expect(build({ alarmActions: Array.from({ length: 5 }, (_, i) => `arn:aws:sns:us-east-1:123456789012:t${i}`), outputPrefix: "orders_" })).not.toThrow();
  });

  it("refuses a function name that, after a 40-character prefix, makes the IAM role name pass 64 characters", () => {
    const error = errorOf(build({ function: { name: "charge-handler-v2-extra" } }, { ...TEST_STACK, namePrefix: "p".repeat(40) }));
    expect(error.problems).toEqual([
      {
        prop: "function.name",
        value: "charge-handler-v2-extra",
        reason: `makes a name longer than AWS accepts: IAM role name "${"p".repeat(40)}-charge-handler-v2-extra-us-east-1-role" (namePrefix 40 + function.name 23 + region us-east-1 9 + fixed text 7 = 79 > 64)`,
        fix: `use at most 8 characters with namePrefix "${"p".repeat(40)}"`,
      },
    ]);
  });

  it("counts a name one character over the limit", () => {
    const error = errorOf(build({ function: { name: "a".repeat(65 - "test--us-east-1-role".length) } }));
    expect(error.problems).toEqual([expect.objectContaining({ prop: "function.name", fix: 'use at most 44 characters with namePrefix "test"' })]);
  });

  it("warns about a reservation only an account with a raised quota can hold, and leaves it to the preflight", () => {
    expect(warningsOf(build({ function: { reservedConcurrency: 900 } })())).toEqual([]);
    const [warning] = warningsOf(build({ function: { reservedConcurrency: 901 } })());
    expect(warning).toMatch(/reservedConcurrency = 901 needs an account concurrency quota of at least 1001.*default quota is 1000, so at most 900/);
  });
});

describe("Synth refuses regions that lack what the pipeline uses", () => {
  it("refuses a GovCloud region (no EventBridge Pipes there), citing AWS's GovCloud guide", () => {
    const error = errorOf(build({}, { ...TEST_STACK, region: "us-gov-west-1" }));
    expect(error.problems[0]).toMatchObject({ prop: "provider region", value: "us-gov-west-1" });
    expect(error.message).toContain("https://docs.aws.amazon.com/govcloud-us/latest/UserGuide/govcloud-eventbridge.html");
  });

  it("refuses the function's X-Ray tracing in a China region, and accepts the stack without it", () => {
    const error = errorOf(build({}, { ...TEST_STACK, region: "cn-north-1" }));
    expect(error.problems).toEqual([expect.objectContaining({ prop: "tracing", value: true, fix: expect.stringMatching(/set tracing: false .*docs\.amazonaws\.cn/) })]);
    expect(build({ tracing: false }, { ...TEST_STACK, region: "cn-north-1" })).not.toThrow();
  });

  it("refuses an alarm action of another partition than the stack's", () => {
    const error = errorOf(build({ tracing: false, alarmActions: ["arn:aws:sns:us-east-1:123456789012:ops"] }, { ...TEST_STACK, region: "cn-northwest-1" }));
    expect(error.problems).toEqual([expect.objectContaining({ prop: "alarmActions", reason: expect.stringMatching(/partition "aws".*partition "aws-cn"/) })]);
  });
});

describe("The deprecated region prop", () => {
  it("refuses a region that differs from the provider's", () => {
    const error = errorOf(build({ region: "eu-west-1" }));
    expect(error.problems).toEqual([expect.objectContaining({ prop: "region", value: "eu-west-1", reason: expect.stringMatching(/differs from the provider's region "us-east-1"/), fix: expect.stringMatching(/^remove region/) })]);
  });

  it("refuses a value that is not a region", () => {
    expect(errorOf(build({ region: "Frankfurt" })).problems[0]).toMatchObject({ prop: "region", fix: "remove region" });
  });

  it("accepts the provider's own region, with a deprecation warning", () => {
    expect(warningsOf(build({ region: "us-east-1" })())).toEqual([expect.stringMatching(/region prop is deprecated and unused/)]);
    expect(warningsOf(build({})())).toEqual([]);
  });
});
