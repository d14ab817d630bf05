import { createPipeRunner } from "../../src/pipes";
import { PipeConfigError } from "@effectively-once/contract/pipe-filter";
import type { PipeRunnerOptions } from "../../src/pipes";
import { FakeClock } from "./support/fake-clock";
import { InMemorySqs } from "./support/in-memory-sqs";
import { QUEUE_ARN, QUEUE_URL } from "./support/harness";

const clock = new FakeClock();
const valid: PipeRunnerOptions = {
  name: "orders-pipe",
  sqs: new InMemorySqs(clock).client,
  queueUrl: QUEUE_URL,
  queueArn: QUEUE_ARN,
  region: "us-east-1",
  batchSize: 10,
  maximumBatchingWindowInSeconds: 1,
  invocationType: "REQUEST_RESPONSE",
  target: async () => ({ status: "SUCCEEDED" }),
  clock,
};

describe("Function: createPipeRunner (options)", () => {
  it.each([
    ["name", { name: "" }, /^name: required/],
    ["queueUrl", { queueUrl: undefined }, /^queueUrl: required/],
    ["queueArn", { queueArn: "arn:aws:sns:us-east-1:1:t" }, /^queueArn: .* is not an SQS queue ARN/],
    ["batchSize 0", { batchSize: 0 }, /^batchSize: 0 is not an integer between 1 and 10000/],
    ["batchSize 10,001", { batchSize: 10_001 }, /^batchSize: 10001 is not an integer between 1 and 10000/],
    ["a FIFO batch above 10", { queueArn: `${QUEUE_ARN}.fifo`, batchSize: 11 }, /between 1 and 10 for a FIFO queue/],
    ["a window above 300 s", { maximumBatchingWindowInSeconds: 301 }, /^maximumBatchingWindowInSeconds: 301/],
    ["an unknown invocation type", { invocationType: "SYNC" as never }, /^invocationType: "SYNC" is not one of REQUEST_RESPONSE, FIRE_AND_FORGET/],
    ["REQUEST_RESPONSE on a STANDARD workflow", { workflowType: "STANDARD" as const }, /STANDARD state machine cannot be invoked with REQUEST_RESPONSE/],
    ["a missing target", { target: undefined as never }, /^target: pass a function/],
    ["concurrency 0", { concurrency: 0 }, /^concurrency: 0/],
    ["an empty input template", { inputTemplate: " " }, /^inputTemplate: must be a non-empty string/],
    ["an unsupported filter operator", { filterCriteria: { Filters: [{ Pattern: '{"a":[{"anything-but":{"prefix":"x"}}]}' }] } }, /does not support/],
  ])("refuses %s with an error naming the field", (_name, override, message) => {
    expect(() => createPipeRunner({ ...valid, ...override } as PipeRunnerOptions)).toThrow(PipeConfigError);
    expect(() => createPipeRunner({ ...valid, ...override } as PipeRunnerOptions)).toThrow(message);
  });

  it("accepts FIRE_AND_FORGET on EXPRESS and STANDARD targets, as AWS does", () => {
    expect(() => createPipeRunner({ ...valid, invocationType: "FIRE_AND_FORGET" })).not.toThrow();
    expect(() => createPipeRunner({ ...valid, invocationType: "FIRE_AND_FORGET", workflowType: "STANDARD" })).not.toThrow();
  });

  it("does nothing until started and reports idle stats", () => {
    const runner = createPipeRunner(valid);
    expect(runner.stats()).toMatchObject({ state: "idle", batches: 0, inFlightBatches: 0 });
  });
});
