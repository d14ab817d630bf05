/**
 * Every Task of the pipeline definition sends only what AWS's API accepts: its Arguments are held to the input shape
 * of the operation its Resource names (member names, required members, enums), in AWS's own service models, vendored
 * with the repository (packages/testing/src/aws-models, extracted from botocore by scripts/aws-models/extract.mjs). Twice: the
 * rendered template (what is deployed), and the Arguments as evaluated in runs that reach every Task (what a JSONata
 * template builds, such as the quarantine's message attributes, is known only then).
 */
import type { LambdaInvoker } from "@effectively-once/local-cloud/emulators";
import { renderPipelineDefinition } from "../src/render";
import { checkTaskArguments, operationOfResource } from "@effectively-once/testing";
import { serviceModel } from "@effectively-once/testing";
import { PIPELINE_TEST_PARAMS } from "@effectively-once/testing";
import { sqsRecord, startPipelineMachine, type PipelineMachine } from "./support/pipeline-machine";

interface TaskState {
  readonly name: string;
  readonly Resource: string;
  readonly Arguments: unknown;
}

/** Every Task state of a definition, nested Map processors and Parallel branches included. */
function taskStates(states: Record<string, any>): TaskState[] {
  return Object.entries(states).flatMap(([name, state]) => [
    ...(state.Type === "Task" ? [{ name, Resource: state.Resource, Arguments: state.Arguments }] : []),
    ...(state.ItemProcessor ? taskStates(state.ItemProcessor.States) : []),
    ...((state.Branches ?? []) as { States: Record<string, any> }[]).flatMap((b) => taskStates(b.States)),
  ]);
}

const definition = () => renderPipelineDefinition(PIPELINE_TEST_PARAMS) as { States: Record<string, any> };

describe("Task Arguments against AWS's API models", () => {
  it("reads models pinned with the repository, and names the botocore version they came from", () => {
    for (const file of ["dynamodb", "lambda", "sqs"] as const) expect(serviceModel(file).source.botocore).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it("finds the seven Tasks of the definition, each an optimized integration with a vendored model", () => {
    const tasks = taskStates(definition().States);
    expect(tasks.map((t) => `${t.name} ${operationOfResource(t.Resource).file}:${operationOfResource(t.Resource).operation}`).sort()).toEqual([
      "Claim dynamodb:PutItem",
      "Complete dynamodb:UpdateItem",
      "Inspect dynamodb:GetItem",
      "Invoke lambda:Invoke",
      "Quarantine sqs:SendMessage",
      "QuarantineFollower sqs:SendMessage",
      "Release dynamodb:DeleteItem",
    ]);
  });

  it.each(taskStates(definition().States).map((t) => [t.name, t] as const))("%s: the rendered Arguments hold only members the input shape has, and all it requires", (_name, task) => {
    expect(checkTaskArguments(task.Resource, task.Arguments)).toEqual([]);
  });

  // FIFO mode's quarantines add MessageGroupId and MessageDeduplicationId (statemachines/src/fifo.ts).
  const fifoTasks = () => taskStates((renderPipelineDefinition({ ...PIPELINE_TEST_PARAMS, fifo: { maxReceiveCount: 5 } }) as { States: Record<string, any> }).States);
  it.each(fifoTasks().map((t) => [t.name, t] as const))("FIFO mode, %s: the rendered Arguments hold only members the input shape has, and all it requires", (_name, task) => {
    expect(checkTaskArguments(task.Resource, task.Arguments)).toEqual([]);
  });
  it("FIFO mode's quarantine sends name the group and the deduplication id as SendMessage spells them", () => {
    const quarantine = fifoTasks().find((t) => t.name === "Quarantine")!;
    expect(Object.keys(quarantine.Arguments as object)).toEqual(expect.arrayContaining(["MessageGroupId", "MessageDeduplicationId"]));
    expect(checkTaskArguments(quarantine.Resource, { ...(quarantine.Arguments as object), MessageDedupId: "x" })).toHaveLength(1);
  });

  describe("fails on a changed argument", () => {
    const claim = () => taskStates(definition().States).find((t) => t.name === "Claim")!;
    it("a misspelt member name", () => {
      const { ConditionExpression, ...rest } = claim().Arguments as Record<string, unknown>;
      const problems = checkTaskArguments(claim().Resource, { ...rest, ConditionExpresion: ConditionExpression });
      expect(problems).toEqual([{ path: "Arguments.ConditionExpresion", problem: expect.stringMatching(/^is not a member of PutItemInput \(members: .*ConditionExpression/) }]);
    });
    it("a required member left out", () => {
      const { TableName: _, ...rest } = claim().Arguments as Record<string, unknown>;
      expect(checkTaskArguments(claim().Resource, rest)).toEqual([{ path: "Arguments.TableName", problem: "is required by PutItemInput and missing" }]);
    });
    it("a value outside an enum", () => {
      const problems = checkTaskArguments(claim().Resource, { ...(claim().Arguments as object), ReturnValues: "ALL_NEW_AND_OLD" });
      expect(problems).toEqual([{ path: "Arguments.ReturnValues", problem: expect.stringMatching(/"ALL_NEW_AND_OLD" is not one of ReturnValue's values/) }]);
    });
    it("an attribute value with a type DynamoDB does not have", () => {
      const args = claim().Arguments as { Item: Record<string, unknown> };
      const problems = checkTaskArguments(claim().Resource, { ...args, Item: { ...args.Item, pk: { STRING: "x" } } });
      expect(problems).toEqual([{ path: 'Arguments.Item["pk"].STRING', problem: expect.stringMatching(/^is not a member of AttributeValue/) }]);
    });
  });

  describe("the evaluated Arguments of runs that reach every Task", () => {
    let pipeline: PipelineMachine;
    const lambda: LambdaInvoker = async (req) => {
      const event = JSON.parse(req.Payload);
      if (event.payload.currency === "XXX") return { StatusCode: 200, FunctionError: "Unhandled", Payload: JSON.stringify({ errorType: "ValidationError", errorMessage: "refused" }) };
      if (event.payload.currency === "ERR") return { StatusCode: 200, FunctionError: "Unhandled", Payload: JSON.stringify({ errorType: "Error", errorMessage: "try again" }) };
      return { StatusCode: 200, Payload: "{}" };
    };
    beforeAll(async () => {
      pipeline = await startPipelineMachine(lambda);
    });
    afterAll(() => pipeline.stop());

    it("send only members the API models hold", async () => {
      const body = (orderId: string, currency = "EUR", amount = 5) => JSON.stringify({ tenantId: "t", orderId, amount, currency });
      const runs = [
        // Claim, Invoke, Complete; then the same key again: Claim fails its condition, Inspect finds it COMPLETED.
        [sqsRecord("m1", body("o1")), sqsRecord("m2", body("o1", "EUR", 6))],
        // A permanent error: Release and Quarantine; a copy with the very same body in the batch: QuarantineFollower.
        [sqsRecord("m3", body("o3", "XXX")), sqsRecord("m4", body("o3", "XXX"))],
        // A transient error: Release, retried; an invalid body: Quarantine with a detail.
        [sqsRecord("m5", body("o5", "ERR")), sqsRecord("m6", "{not json")],
      ];
      const scheduled: { resource: string; parameters: unknown }[] = [];
      for (const records of runs) {
        const run = await pipeline.machine.execute(records);
        expect(run.status).toBe("SUCCEEDED");
        for (const event of run.events.filter((e) => e.type === "TaskScheduled")) {
          const details = event.details as { resource: string; resourceType: string; parameters: unknown };
          const parameters = typeof details.parameters === "string" ? JSON.parse(details.parameters) : details.parameters;
          scheduled.push({ resource: `arn:aws:states:::${details.resourceType}:${details.resource}`, parameters });
        }
      }
      const operations = new Set(scheduled.map((s) => s.resource));
      expect([...operations].sort()).toEqual(taskStates(definition().States).map((t) => t.Resource).filter((r, i, all) => all.indexOf(r) === i).sort());
      for (const { resource, parameters } of scheduled) expect({ resource, problems: checkTaskArguments(resource, parameters) }).toEqual({ resource, problems: [] });
    });
  });
});
