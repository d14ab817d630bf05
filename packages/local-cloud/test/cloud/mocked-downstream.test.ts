import { join } from "node:path";
import { SendMessageCommand } from "@aws-sdk/client-sqs";
import { startLocalCloud, type CloudEvent, type LocalCloud } from "../../src/cloud";
import { type SynthesizedStack } from "@effectively-once/testing";
import { synthStack } from "@effectively-once/testing/stack";
import { waitFor } from "@effectively-once/testing";

// The local cloud runs the synthesized stack with the pipeline's Invoke state answered from a Step Functions
// Local mock configuration: the downstream function is simulated, never run.
describe("Local cloud: mocked downstream (Step Functions Local mock configuration)", () => {
  let stack: SynthesizedStack;
  let cloud: LocalCloud | undefined;
  let machineName: string;
  beforeAll(() => {
    stack = synthStack();
  });
  afterAll(async () => {
    await cloud?.stop();
    stack?.cleanup();
  });

  it("processes a message with the mocked function result and never invokes the function", async () => {
    // The machine's name comes from the stack, as a user would read it from `terraform output` or the console.
    const probe = await startLocalCloud({ stackFile: join(stack.stackDir, "cdk.tf.json"), startPipes: false });
    machineName = probe.provisioned.stateMachines[0].name;
    await probe.stop();
    const config = {
      // One invocation per batch (the default): the batch's invocation answers no record (its messageId is SQS's, known
      // only after the send), so the record runs its own Invoke, answered from the mock too.
      StateMachines: { [machineName]: { TestCases: { ChargeOk: { InvokeBatch: "BatchAnswersNone", Invoke: "ChargeSucceeded" } } } },
      MockedResponses: {
        BatchAnswersNone: {
          "0": { Return: { ExecutedVersion: "$LATEST", Payload: { outcomes: [] }, SdkHttpMetadata: { HttpStatusCode: 200 }, SdkResponseMetadata: { RequestId: "mock-batch" }, StatusCode: 200 } },
        },
        ChargeSucceeded: {
          "0": {
            Return: {
              ExecutedVersion: "$LATEST",
              Payload: { status: "charged" },
              SdkHttpMetadata: { HttpStatusCode: 200 },
              SdkResponseMetadata: { RequestId: "mock" },
              StatusCode: 200,
            },
          },
        },
      },
    };
    cloud = await startLocalCloud({ stackFile: join(stack.stackDir, "cdk.tf.json"), mocks: { config, testCase: "ChargeOk" } });
    const outcomes: CloudEvent[] = [];
    cloud.subscribe((event) => event.type === "record-outcome" && outcomes.push(event));
    await cloud.clients.sqs.send(
      new SendMessageCommand({
        QueueUrl: cloud.outputs.queue_url as string,
        MessageBody: JSON.stringify({ tenantId: "t1", orderId: "o-mock", amount: 100, currency: "EUR" }),
      }),
    );
    await waitFor(() => outcomes.length === 1, { timeoutMs: 15_000, message: "one record outcome" });
    expect(outcomes[0]).toMatchObject({ outcome: "processed" });
    const invocations = Object.values(cloud.stats().functions).reduce((sum, f) => sum + f.invocations, 0);
    expect(invocations).toBe(0);
  }, 60_000);

  it("refuses a configuration that names none of the stack's state machines", async () => {
    const config = { StateMachines: { Other: { TestCases: { T: {} } } }, MockedResponses: {} };
    await expect(startLocalCloud({ stackFile: join(stack.stackDir, "cdk.tf.json"), mocks: { config, testCase: "T" } })).rejects.toThrow(
      new RegExp(`StateMachines names Other; the stack's state machines are ${machineName}`),
    );
  }, 30_000);
});
