// Replays of LocalStack's AWS-validated SQS snapshot tests (Apache-2.0): which attributes a ReceiveMessage returns
// for its MessageAttributeNames / AttributeNames / MessageSystemAttributeNames filters. Source of each case:
// tests/aws/services/sqs/test_sqs.py and test_sqs.snapshot.json, test named in each `recording(...)` call.
import { ReceiveMessageCommand, SendMessageCommand } from "@aws-sdk/client-sqs";
import type { ReceiveMessageCommandInput } from "@aws-sdk/client-sqs";
import { answer, expectReplay, recording } from "./replay";
import { useLocalSqs } from "../support/local-sqs";
import { queryCall } from "./sqs-query-client";

const sqs = useLocalSqs("replay");

async function queueWithMessage(attributes: Record<string, string>): Promise<string> {
  const url = await sqs.createQueue({ VisibilityTimeout: "0" });
  const MessageAttributes = Object.fromEntries(Object.entries(attributes).map(([name, value]) => [name, { DataType: "String", StringValue: value }]));
  await sqs.client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: "msg", MessageAttributes }));
  return url;
}

const receive = async (input: ReceiveMessageCommandInput) => answer(await sqs.client.send(new ReceiveMessageCommand({ WaitTimeSeconds: 5, ...input })));
const first = (response: unknown) => (response as { Messages: unknown[] }).Messages[0];
const KENOBI = { "Help.Me": "Me", Hello: "There", General: "Kenobi" };

describe("ReceiveMessage's MessageAttributeNames (recorded on AWS)", () => {
  it("[] and absent return none, All / * / .* all, names and the prefix Hel.* only theirs, with their own MD5", async () => {
    const rec = recording("sqs", "TestSqsProvider::test_receive_message_message_attribute_names_filters[sqs]");
    const url = await sqs.createQueue({ VisibilityTimeout: "0" });
    const sent = await sqs.client.send(
      new SendMessageCommand({
        QueueUrl: url,
        MessageBody: "msg",
        MessageAttributes: Object.fromEntries(Object.entries(KENOBI).map(([n, v]) => [n, { DataType: "String", StringValue: v }])),
      }),
    );
    const names = (MessageAttributeNames: string[]) => receive({ QueueUrl: url, MessageAttributeNames });
    expectReplay(rec, {
      send_message_response: answer(sent),
      empty_filter: await names([]),
      all_name: await names(["All"]),
      all_wildcard_asterisk: first(await names(["*"])),
      all_wildcard: first(await names([".*"])),
      only_non_existing_names: first(await names(["Foo", "Help"])),
      only_existing: first(await names(["Hello", "General"])),
      existing_and_non_existing: first(await names(["Foo", "Hello"])),
      prefix_filter: first(await names(["Hel.*"])),
      illegal_name_1: await names(["AWS."]),
      illegal_name_2: await names(["..foo"]),
    });
  });

  it("the same filters over the query protocol", async () => {
    const rec = recording("sqs", "TestSqsProvider::test_receive_message_message_attribute_names_filters[sqs_query]");
    const url = await sqs.createQueue({ VisibilityTimeout: "0" });
    const call = (MessageAttributeNames: string[]) => queryCall(sqs.endpoint, "ReceiveMessage", { QueueUrl: url, WaitTimeSeconds: 5, MessageAttributeNames });
    await sqs.client.send(
      new SendMessageCommand({
        QueueUrl: url,
        MessageBody: "msg",
        MessageAttributes: Object.fromEntries(Object.entries(KENOBI).map(([n, v]) => [n, { DataType: "String", StringValue: v }])),
      }),
    );
    expectReplay(rec, {
      empty_filter: await call([]),
      all_name: await call(["All"]),
      all_wildcard_asterisk: first(await call(["*"])),
      all_wildcard: first(await call([".*"])),
      only_non_existing_names: first(await call(["Foo", "Help"])),
      only_existing: first(await call(["Hello", "General"])),
      existing_and_non_existing: first(await call(["Foo", "Hello"])),
      prefix_filter: first(await call(["Hel.*"])),
      illegal_name_1: await call(["AWS."]),
      illegal_name_2: await call(["..foo"]),
    });
  });
});

describe("ReceiveMessage's AttributeNames / MessageSystemAttributeNames (recorded on AWS)", () => {
  it("AttributeNames: All, All with message attributes, one name, a FIFO-only name ignored", async () => {
    const rec = recording("sqs", "TestSqsProvider::test_receive_message_attribute_names_filters[sqs]");
    const url = await queueWithMessage({ Foo: "Bar" });
    const call = (AttributeNames: string[], MessageAttributeNames: string[] = []) =>
      receive({ QueueUrl: url, AttributeNames: AttributeNames as never, MessageAttributeNames });
    expectReplay(
      rec,
      {
        all_attributes: await call(["All"]),
        all_system_and_message_attributes: await call(["All"], ["All"]),
        single_attribute: await call(["SenderId"]),
        multiple_attributes: await call(["SenderId", "SequenceNumber"]),
      },
      { skip: ["$..Attributes.SenderId"] },
    );
  });

  it("MessageSystemAttributeNames: the same four filters", async () => {
    const rec = recording("sqs", "TestSqsProvider::test_receive_message_message_system_attribute_names_filters[sqs]");
    const url = await queueWithMessage({ Foo: "Bar" });
    const call = (MessageSystemAttributeNames: string[], MessageAttributeNames: string[] = []) =>
      receive({ QueueUrl: url, MessageSystemAttributeNames: MessageSystemAttributeNames as never, MessageAttributeNames });
    expectReplay(rec, {
      all_attributes: await call(["All"]),
      all_system_and_message_attributes: await call(["All"], ["All"]),
      single_attribute: await call(["SenderId"]),
      multiple_attributes: await call(["SenderId", "SequenceNumber"]),
    });
  });

  it("both parameters: their union", async () => {
    const rec = recording("sqs", "TestSqsProvider::test_message_system_attribute_names_with_attribute_names[sqs]");
    const url = await queueWithMessage({ Foo: "Bar" });
    const call = (system: string[], names: string[]) =>
      receive({ QueueUrl: url, MessageSystemAttributeNames: system as never, AttributeNames: names as never });
    expectReplay(rec, { same_values: await call(["All"], ["All"]), different_values: await call(["All"], ["SenderId"]) });
  });
});
