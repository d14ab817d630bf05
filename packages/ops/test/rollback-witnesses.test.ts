/**
 * A rollback to release 0.2: the deployed function sets none of the second-layer id variables, so it reads only its
 * own `<function name>#<MD5>` records. `dlq redrive` counts as a key's memory only the records the DEPLOYED function
 * honours, read from its configuration through Lambda's GetFunctionConfiguration (the local cloud's endpoint), not from
 * the outputs, which still name `effectively-once.v1` (they predate the rollback, or are 0.2's own and read the contract
 * form "as one more witness"). When it cannot read the configuration it counts no record at all, and says so.
 *
 * Each case: the ledger lost an applied key (its claim IN_PROGRESS), a resend waits in the DLQ 5 days after its first
 * send (past the source queue's 4 days), and the only witness is a COMPLETED Powertools record that outlives the
 * copy's last delivery. The copy may move only if the function would read that record.
 */
import { DeleteMessageCommand, ReceiveMessageCommand } from "@aws-sdk/client-sqs";
import { DeleteCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import { businessKeyText, ContractEnv, legacySecondLayerIds, OutputName, SECOND_LAYER_IDS, type SecondLayerIds } from "@effectively-once/contract";
import { idempotencyRecordId } from "@effectively-once/functions";
import { redriveDlq, type OpsContext } from "../src";
import { payment, startOpsCloud, type OpsCloud } from "./support/ops-cloud";

const DAY_MS = 24 * 3600 * 1000;
const SECOND_LAYER_VARIABLES: readonly string[] = [ContractEnv.IdempotencyKeyPrefix, ContractEnv.IdempotencyHashFunction, ContractEnv.IdempotencyLegacyKeyPrefix];
let ops: OpsCloud;
const written: { key: string; id: string }[] = [];

/** The ledger's claim of `orderId` left IN_PROGRESS (a failed Complete), and the function's record COMPLETED on day −4 under `ids`. */
async function appliedUnder(orderId: string, ids: SecondLayerIds): Promise<void> {
  const ctx = ops.ctx;
  const key = businessKeyText(["t1", orderId]);
  const at = Math.floor((Date.now() - 4 * DAY_MS) / 1000);
  const retention = 14 * 24 * 3600;
  const operation = ctx.outputs.operation as string;
  await ctx.dynamodb.send(new PutCommand({ TableName: ctx.outputs.ledger_table_name as string, Item: { pk: key, sk: operation, status: "IN_PROGRESS", claimedAt: at, leaseExpiresAt: at + 160, expiresAt: at + retention } }));
  const id = idempotencyRecordId(key, operation, ids);
  await ctx.dynamodb.send(new PutCommand({ TableName: ctx.outputs.idempotency_table_name as string, Item: { id, status: "COMPLETED", expiration: at + retention } }));
  written.push({ key, id });
  await ops.sendToDlq(payment(orderId));
}

/** A dry-run redrive 5 days from now, with the notices it gives. */
async function redriveOnDay5(ctx: OpsContext) {
  const notices: string[] = [];
  const result = await redriveDlq({ ...ctx, now: () => Date.now() + 5 * DAY_MS }, { dryRun: true, onNotice: (line) => notices.push(line) });
  return { moved: result.moved.map((m) => JSON.parse(m.entry.body).orderId as string), unsafe: result.unsafe.map((u) => JSON.parse(u.entry.body).orderId as string), notices };
}

/** The outputs of release 0.2: none of the second-layer id outputs. */
const withoutIdOutputs = (ctx: OpsContext): OpsContext => ({
  ...ctx,
  outputs: Object.fromEntries(Object.entries(ctx.outputs).filter(([name]) => ![OutputName.IdempotencyKeyPrefix, OutputName.IdempotencyHashFunction, OutputName.IdempotencyLegacyKeyPrefix].includes(name as never))),
});

beforeAll(async () => {
  // The function as release 0.2 deployed it: no second-layer id variables (its wrapper used Powertools' defaults).
  ops = await startOpsCloud({ functionVariables: (v) => Object.fromEntries(Object.entries(v).filter(([name]) => !SECOND_LAYER_VARIABLES.includes(name))) });
}, 30_000);

afterAll(async () => ops?.stop());

afterEach(async () => {
  // Every case leaves the DLQ empty.
  for (;;) {
    const { Messages = [] } = await ops.cloud.clients.sqs.send(new ReceiveMessageCommand({ QueueUrl: ops.ctx.outputs.dlq_url as string, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }));
    if (Messages.length === 0) break;
    for (const m of Messages) await ops.cloud.clients.sqs.send(new DeleteMessageCommand({ QueueUrl: ops.ctx.outputs.dlq_url as string, ReceiptHandle: m.ReceiptHandle! }));
  }
  for (const { key, id } of written.splice(0)) {
    await ops.ctx.dynamodb.send(new DeleteCommand({ TableName: ops.ctx.outputs.ledger_table_name as string, Key: { pk: key, sk: ops.ctx.outputs.operation } }));
    await ops.ctx.dynamodb.send(new DeleteCommand({ TableName: ops.ctx.outputs.idempotency_table_name as string, Key: { id } }));
  }
});

describe("dlq redrive after a rollback to release 0.2", () => {
  it.each([
    ["the outputs predate the rollback (they name effectively-once.v1)", (ctx: OpsContext) => ctx],
    ["0.2's own outputs", withoutIdOutputs],
  ])("does not count an effectively-once.v1 record the rolled-back function never reads (%s)", async (_, outputs) => {
    // Arrange
    await appliedUnder("rollback-v1", SECOND_LAYER_IDS);

    // Act
    const { moved, unsafe, notices } = await redriveOnDay5(outputs(ops.ctx));

    // Assert: refused, and ops says why it counted fewer records.
    expect(moved).toEqual([]);
    expect(unsafe).toEqual(["rollback-v1"]);
    expect(notices.join("\n")).toContain(`sets no ${ContractEnv.IdempotencyKeyPrefix}`);
  });

  it("counts the rolled-back function's own <function name>#<MD5> record", async () => {
    // Arrange
    await appliedUnder("rollback-md5", legacySecondLayerIds(ops.functionName));

    // Act / Assert: the function answers the copy from that record, so it may move.
    expect((await redriveOnDay5(ops.ctx)).moved).toEqual(["rollback-md5"]);
  });

  it.each<[string, (ctx: OpsContext) => OpsContext, RegExp]>([
    ["the function is missing (ResourceNotFoundException)", (ctx) => ({ ...ctx, outputs: { ...ctx.outputs, [OutputName.FunctionName]: "rollback-gone" } }), /GetFunctionConfiguration on rollback-gone failed \(ResourceNotFoundException/],
    ["ops has no way to read it", ({ functionConfiguration: _, ...ctx }) => ctx, /cannot read the configuration of the function/],
    ["permission denied", (ctx) => ({ ...ctx, functionConfiguration: async () => Promise.reject(Object.assign(new Error("not authorized to perform: lambda:GetFunctionConfiguration"), { name: "AccessDeniedException" })) }), /failed \(AccessDeniedException/],
  ])("counts no record when it cannot tell which the function honours: %s", async (_, edit, said) => {
    // Arrange: a record of the very form the function reads, which would be a witness if ops could tell.
    await appliedUnder("rollback-unknown", legacySecondLayerIds(ops.functionName));

    // Act
    const { moved, unsafe, notices } = await redriveOnDay5(edit(ops.ctx));

    // Assert
    expect(moved).toEqual([]);
    expect(unsafe).toEqual(["rollback-unknown"]);
    expect(notices.join("\n")).toMatch(said);
  });
});
