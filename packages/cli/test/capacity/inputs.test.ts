import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { figuresFromFile, modelCallsPerMessage } from "../../src/capacity/figures";
import { QUOTA_IDS, resolveQuotas } from "../../src/capacity/quotas";
import { capacitySettingsFrom } from "../../src/capacity/settings";
import { CONFIG } from "../cost/fixtures";
import { ROUND } from "./fixtures";

describe("quotas", () => {
  it("each has an https source, and the ones AWS states no number for are marked assumptions", () => {
    const quotas = resolveQuotas();
    for (const id of QUOTA_IDS) expect(quotas[id].source.url).toMatch(/^https:\/\/docs\.aws\.amazon\.com\//);
    expect(QUOTA_IDS.filter((id) => quotas[id].assumption)).toEqual(["sfn.syncStartRate", "sfn.syncStartBurst"]);
    expect(quotas["sqs.inFlight"].value).toBe(120_000);
    expect(quotas["dynamodb.partitionWriteUnits"].value).toBe(1000);
    expect(quotas["lambda.invocationRate"]).toMatchObject({ value: 10_000, scope: "per account and region" });
    expect(quotas["lambda.invocationRate"].source.url).toBe("https://docs.aws.amazon.com/lambda/latest/dg/lambda-concurrency.html");
    expect(quotas["sqs.inFlight"].source.says).toContain("If you use long polling, Amazon SQS returns no error messages");
  });

  it("derives Lambda's invocation rate from the account's concurrency (10 ×) unless it is given itself", () => {
    expect(resolveQuotas(undefined, ["lambda.concurrency=3000"])["lambda.invocationRate"]).toMatchObject({ value: 30_000, origin: "10 × lambda.concurrency (--quota lambda.concurrency=3000)" });
    expect(resolveQuotas(undefined, ["lambda.concurrency=3000", "lambda.invocationRate=12000"])["lambda.invocationRate"]).toMatchObject({ value: 12_000 });
  });

  it("takes overrides from a file, then from flags, and names a bad one", () => {
    const dir = mkdtempSync(join(tmpdir(), "quotas-"));
    try {
      const file = join(dir, "q.json");
      writeFileSync(file, JSON.stringify({ "lambda.concurrency": 3000, "sqs.inFlight": 200000 }));
      const quotas = resolveQuotas(file, ["lambda.concurrency=5_000"]);
      expect(quotas["lambda.concurrency"]).toMatchObject({ value: 5000, origin: "--quota lambda.concurrency=5_000" });
      expect(quotas["sqs.inFlight"]).toMatchObject({ value: 200000, origin: `--quotas ${file}` });
      writeFileSync(file, JSON.stringify({ "lambda.concurency": 3000 }));
      expect(() => resolveQuotas(file)).toThrow(/"lambda\.concurency" is not a quota the planner reads/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(() => resolveQuotas(undefined, ["lambda.concurrency"])).toThrow(/--quota lambda\.concurrency: write id=value/);
    expect(() => resolveQuotas(undefined, ["sqs.inFlight=-1"])).toThrow(/sqs\.inFlight must be a number > 0/);
  });
});

describe("figures from npm run bench", () => {
  it("the model counts 0.8 × 6 + 0.2 × 2 = 5.2 calls per message at 20% duplicates", () => {
    expect(modelCallsPerMessage({ duplicateRatio: 0.2, quarantineRatio: 0, retryRatio: 0, hotKeyShare: 0 })).toBeCloseTo(5.2, 9);
  });

  it("reads the case of the stack's batch size, scales DynamoDB calls by measured ÷ model, and names what is wrong", () => {
    const dir = mkdtempSync(join(tmpdir(), "figures-"));
    try {
      const file = join(dir, "f.json");
      writeFileSync(file, JSON.stringify({ kind: "pipeline-figures", label: "local CPU figures", duplicateRatio: 0.2, cases: [{ batchSize: 10, executionMsPerBatch: 300, dynamoCallsPerMessage: 7.8, throughput: 130 }] }));
      const figures = figuresFromFile(file, ROUND, 10);
      expect(figures).toMatchObject({ executionMsPerBatch: 300, pipeOverheadMs: 0, functionMs: 100 });
      expect(figures.dynamoCallScale).toBeCloseTo(7.8 / 5.2, 9);
      expect(figures.label).toMatch(/^local CPU figures/);
      expect(() => figuresFromFile(file, ROUND, 5)).toThrow(/no case for batch size 5 \(has 10\).*--batch-sizes 5 --write-figures/);
      // A file from before the bench timed the function: nothing measured to print.
      expect(figures.measuredFunction).toBeUndefined();
      writeFileSync(file, JSON.stringify({ kind: "pipeline-figures", label: "local", duplicateRatio: 0.2, cases: [{ batchSize: 10, executionMsPerBatch: 300, dynamoCallsPerMessage: 7.8, throughput: 130, batchInvocation: true, invocationsPerMessage: 0.09, functionMsPerInvocation: 62.5 }] }));
      expect(figuresFromFile(file, ROUND, 10).measuredFunction).toEqual({ ms: 62.5, batchInvocation: true, invocationsPerMessage: 0.09 });
      // The planner keeps the AWS-typical durations: the measured one is printed beside them.
      expect(figuresFromFile(file, ROUND, 10)).toMatchObject({ functionMs: ROUND.functionMs, batchFunctionMs: ROUND.batchFunctionMs });
      writeFileSync(file, "{}");
      expect(() => figuresFromFile(file, ROUND, 10)).toThrow(/not a figures file/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("settings from the synthesized stack", () => {
  it("reads the source queue's visibility timeout, the execution timeout, reserved concurrency and the Invoke retries", () => {
    const definition = JSON.stringify({ TimeoutSeconds: 90, States: { Map: { ItemProcessor: { States: { Invoke: { Retry: [{ ErrorEquals: ["Lambda.TooManyRequestsException"], MaxAttempts: 2 }] } } } } } });
    const json = {
      resource: {
        aws_sqs_queue: { dlq: {}, queue: { visibility_timeout_seconds: 540, redrive_policy: "{}" } },
        aws_lambda_function: { fn: { reserved_concurrent_executions: 25 } },
        aws_sfn_state_machine: { sm: { definition } },
      },
    };
    expect(capacitySettingsFrom(json, CONFIG, "test")).toEqual({ config: CONFIG, visibilityTimeoutSeconds: 540, executionTimeoutSeconds: 90, reservedConcurrency: 25, lambdaRetries: 2 });
    expect(() => capacitySettingsFrom({ resource: {} }, CONFIG, "x.json")).toThrow(/x\.json: expected one aws_sqs_queue with a redrive_policy/);
  });
});
