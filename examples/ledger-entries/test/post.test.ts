import { randomUUID } from "node:crypto";
import type { PipelineHandler } from "@effectively-once/pipeline/handler";
import type { PostingResult } from "../functions/post";
import { profile } from "../profile";
import { functionEnv, lambdaContext, startLocalDynamoDb } from "./harness";

const TABLES = { idempotency: "ledger-idempotency", effects: "ledger-effects" };

function loadHandler(env: Record<string, string>): PipelineHandler<PostingResult> {
  Object.assign(process.env, env);
  let handler: PipelineHandler<PostingResult> | undefined;
  jest.isolateModules(() => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- jest.isolateModules loads synchronously: a fresh module reads this test's environment
    handler = (require("../functions/handler") as { handler: PipelineHandler<PostingResult> }).handler;
  });
  return handler!;
}

describe("Example: ledger-entries post", () => {
  let db: Awaited<ReturnType<typeof startLocalDynamoDb>>;
  let handler: PipelineHandler<PostingResult>;
  const saved = { ...process.env };

  beforeAll(async () => {
    db = await startLocalDynamoDb(TABLES);
    handler = loadHandler(functionEnv(db.endpoint, TABLES));
  });
  afterAll(async () => {
    process.env = saved;
    await db?.stop();
  });

  const entry = (payload: Record<string, unknown> = {}) => {
    const entryId = `e-${randomUUID().slice(0, 8)}`;
    return { businessKey: JSON.stringify(["acc-1", entryId]), operation: "post", messageId: randomUUID(), payload: { accountId: "acc-1", entryId, amount: -2500, currency: "EUR", ...payload } };
  };

  it("posts a debit once and answers a redelivery with the stored posting", async () => {
    const event = entry();
    const first = await handler(event, lambdaContext());
    const again = await handler({ ...event, messageId: randomUUID() }, lambdaContext());
    expect(first).toEqual({ postingId: expect.stringMatching(/^post_/), outcome: "applied", amount: -2500, currency: "EUR" });
    expect(again).toEqual(first);
  });

  it("refuses an entry of amount 0 for good (quarantined rejected)", async () => {
    await expect(handler(entry({ amount: 0 }), lambdaContext())).rejects.toMatchObject({ name: "PipelineRejected", message: expect.stringMatching(/amount 0/) });
  });

  it("groups an account's entries together: the profile names the account as the message group", () => {
    const bodies = [0, 1, 2, 3].map((i) => profile.unique(i, "r", () => 0.3));
    expect(bodies.map((b) => profile.groupOf!(b))).toEqual(["acc-r-0", "acc-r-1", "acc-r-2", "acc-r-0"]);
  });
});
