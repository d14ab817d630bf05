/**
 * A body that holds a member name twice (`{"orderId":"a","orderId":"b"}`): the pipeline quarantines it as
 * `invalid-message` (the Decode step, on the local cloud), and `pipeline-ops` derives no key for it when the queue's
 * redrive moved it, where JSON.parse alone would have keyed it by the last member.
 */
import { DecodeProblem, DlqReason } from "@effectively-once/contract";
import { listDlq } from "../src";
import { startOpsCloud, type OpsCloud } from "./support/ops-cloud";

const TWICE = '{"tenantId":"t1","orderId":"dup-a","amount":100,"currency":"EUR","orderId":"dup-b","amount":900}';
const SPELLED = '{"tenantId":"t1","orderId":"esc-a","amount":100,"currency":"EUR","\\u006frderId":"esc-b"}';

let ops: OpsCloud;

beforeAll(async () => {
  ops = await startOpsCloud();
}, 30_000);

afterAll(async () => ops?.stop());

describe("a member name twice in one body", () => {
  it.each([["written twice", TWICE], ["spelled once with an escape", SPELLED]])("is quarantined as invalid-message by the workflow (%s)", async (_, body) => {
    // Act
    const messageId = await ops.send(body);

    // Assert
    expect(await ops.outcome(messageId)).toMatchObject({ outcome: "quarantined", reason: DlqReason.InvalidMessage });
    const listed = (await listDlq(ops.ctx)).messages.find((m) => m.originalMessageId === messageId);
    expect(listed).toMatchObject({ reason: DlqReason.InvalidMessage, detail: DecodeProblem.duplicateMember });
    expect(listed?.businessKey).toBeUndefined();
  });

  it("gets no key from pipeline-ops when the queue's redrive moved it (JSON.parse alone keeps the last member)", async () => {
    // Arrange: as the queue's redrive moves a message, no reason attribute; a plain body beside it as the control.
    const moved = await ops.sendToDlq(TWICE);
    const plain = await ops.sendToDlq('{"tenantId":"t1","orderId":"dup-b","amount":900,"currency":"EUR"}');

    // Act
    const { messages } = await listDlq(ops.ctx, { reason: DlqReason.RetriesExhausted });

    // Assert
    expect(messages.find((m) => m.messageId === moved)?.businessKey).toBeUndefined();
    expect(messages.find((m) => m.messageId === plain)).toMatchObject({ businessKey: '["t1","dup-b"]', keySource: "body" });
  });
});
