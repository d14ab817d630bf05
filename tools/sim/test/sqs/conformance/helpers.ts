/** The SDK calls the conformance cases make, the same on both implementations. */
import {
  ChangeMessageVisibilityCommand,
  DeleteMessageCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
} from "@aws-sdk/client-sqs";
import type { Message, MessageAttributeValue, SQSClient } from "@aws-sdk/client-sqs";
import type { ConformanceQueue, SqsUnderTest } from "./drivers";

export type Client = Pick<SQSClient, "send">;

export const send = async (client: Client, queue: ConformanceQueue, body: string, attributes?: Record<string, MessageAttributeValue>) =>
  (await client.send(new SendMessageCommand({ QueueUrl: queue.url, MessageBody: body, MessageAttributes: attributes }))).MessageId as string;

/** One receive asking for every attribute (as the pipe and the operator tools do). */
export async function receive(client: Client, queue: ConformanceQueue, options: { max?: number; visibilityTimeout?: number; wait?: number } = {}): Promise<Message[]> {
  const { Messages = [] } = await client.send(
    new ReceiveMessageCommand({
      QueueUrl: queue.url,
      MaxNumberOfMessages: options.max ?? 10,
      VisibilityTimeout: options.visibilityTimeout,
      WaitTimeSeconds: options.wait,
      AttributeNames: ["All"],
      MessageSystemAttributeNames: ["All"],
      MessageAttributeNames: ["All"],
    }),
  );
  return Messages;
}

export const bodies = (messages: readonly Message[]) => messages.map((m) => m.Body).sort();

export const remove = (client: Client, queue: ConformanceQueue, handle: string | undefined) => client.send(new DeleteMessageCommand({ QueueUrl: queue.url, ReceiptHandle: handle }));

export const changeVisibility = (client: Client, queue: ConformanceQueue, handle: string | undefined, seconds: number) =>
  client.send(new ChangeMessageVisibilityCommand({ QueueUrl: queue.url, ReceiptHandle: handle, VisibilityTimeout: seconds }));

export async function counts(client: Client, queue: ConformanceQueue): Promise<{ visible: number; inFlight: number }> {
  const { Attributes = {} } = await client.send(
    new GetQueueAttributesCommand({ QueueUrl: queue.url, AttributeNames: ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"] }),
  );
  return { visible: Number(Attributes.ApproximateNumberOfMessages), inFlight: Number(Attributes.ApproximateNumberOfMessagesNotVisible) };
}

/** The error a call fails with (name and message), or a test failure when it succeeds. */
export async function failure(call: Promise<unknown>): Promise<{ name: string; message: string }> {
  try {
    await call;
  } catch (error) {
    return { name: (error as Error).name, message: (error as Error).message };
  }
  throw new Error("the call succeeded; AWS says it fails");
}

/** Starts one implementation for a describe block and stops it after. */
export function using(make: () => SqsUnderTest): SqsUnderTest {
  const sqs = make();
  beforeAll(() => sqs.start());
  afterAll(() => sqs.stop());
  return sqs;
}
