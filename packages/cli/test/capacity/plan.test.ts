import { planCapacity, niceUp } from "../../src/capacity/plan";
import { resolveQuotas } from "../../src/capacity/quotas";
import { ROUND, SETTINGS } from "./fixtures";

const quotas = resolveQuotas();
const byId = (plan: ReturnType<typeof planCapacity>, id: string) => {
  const part = plan.parts.find((p) => p.id === id);
  if (!part) throw new Error(`no part ${id}`);
  return part;
};

describe("planCapacity: Little's law per part, by hand", () => {
  // Batch 10, one delivery per message: 0.1 executions per message.
  const plan = planCapacity(SETTINGS, ROUND, quotas, 1000);

  it("pipe: 100 batches/s × (200 + 50) ms = 25 batches in flight", () => {
    expect(byId(plan, "pipe").demand).toBeCloseTo(25, 9);
    expect(byId(plan, "pipe").utilisation).toBeCloseTo(0.025, 9);
  });

  it("Step Functions: 100 StartSyncExecution/s, 100/s × 200 ms = 20 in flight", () => {
    expect(byId(plan, "sfn-rate").demand).toBeCloseTo(100, 9);
    expect(byId(plan, "sfn-rate").utilisation).toBeCloseTo(100 / 6000, 9);
    expect(byId(plan, "sfn-concurrency").demand).toBeCloseTo(20, 9);
  });

  it("Lambda: 1,000 invocations/s × 100 ms = 100 environments of 1,000", () => {
    expect(byId(plan, "lambda").demand).toBeCloseTo(100, 9);
    expect(byId(plan, "lambda").utilisation).toBeCloseTo(0.1, 9);
  });

  it("DynamoDB: 2 writes per new key on each table (items under 1 KB), no reads without conflicts", () => {
    for (const table of ["ledger", "idempotency", "effects"]) expect(byId(plan, `dynamodb-${table}-write`).demand).toBeCloseTo(2000, 9);
    expect(plan.parts.some((p) => p.id.endsWith("-read"))).toBe(false);
    // 1% of 1,000 msg/s on one key × 2 writes = 20 WU/s on one partition.
    expect(byId(plan, "hot-key-write").demand).toBeCloseTo(20, 9);
  });

  it("Lambda's account-wide invocation rate: 1,000 invocations/s of 10 × 1,000 = 10,000/s", () => {
    expect(byId(plan, "lambda-rate").demand).toBeCloseTo(1000, 9);
    expect(byId(plan, "lambda-rate").limit).toBe(10_000);
    expect(byId(plan, "lambda-rate").quota.scope).toBe("per account and region");
  });

  it("a short function meets the invocation rate before concurrency: 45 ms × 10/s < 1 environment", () => {
    const short = planCapacity(SETTINGS, { ...ROUND, functionMs: 45 }, quotas, 5000);
    expect(short.saturatesFirst.id).toBe("lambda-rate");
    expect(byId(short, "lambda-rate").utilisation).toBeCloseTo(0.5, 9);
    expect(short.maxSustainableRate).toBe(10_000);
    expect(byId(short, "lambda").utilisation).toBeCloseTo(0.225, 9);
  });

  it("SQS: 1,000 msg/s × 250 ms in the pipe = 250 in flight", () => {
    expect(byId(plan, "sqs").demand).toBeCloseTo(250, 9);
  });

  it("Lambda saturates first, at 1,000 ÷ 0.1 s = 10,000 msg/s (its invocation rate reaches 10,000/s there too)", () => {
    expect(["lambda", "lambda-rate"]).toContain(plan.saturatesFirst.id);
    expect(plan.maxSustainableRate).toBe(10_000);
    expect(plan.remedies).toEqual([]);
    expect(plan.stacks).toBe(1);
  });

  it("retries stay in flight for the visibility timeout: 1.01 × 250 ms + 0.01 × 540 s per msg/s", () => {
    const retried = planCapacity(SETTINGS, { ...ROUND, mix: { ...ROUND.mix, retryRatio: 0.01 } }, quotas, 1000);
    expect(byId(retried, "sqs").perRate).toBeCloseTo(1.01 * 0.25 + 0.01 * 540, 9);
    expect(byId(retried, "sfn-rate").demand).toBeCloseTo(101, 9);
  });

  it("reserved concurrency is the function's limit: 50 environments ÷ 0.1 s = 500 msg/s", () => {
    const reserved = planCapacity({ ...SETTINGS, reservedConcurrency: 50 }, ROUND, quotas, 1000);
    expect(byId(reserved, "lambda").limit).toBe(50);
    expect(reserved.maxSustainableRate).toBe(500);
    expect(reserved.remedies[0].text).toMatch(/raise function\.reservedConcurrency to 120 .* at least 220/);
  });
});

describe("planCapacity: what a rate needs", () => {
  it("20,000 msg/s: Lambda ≥ 2,400 and each table's writes ≥ 48,000 (demand × 1.2), one stack", () => {
    const plan = planCapacity(SETTINGS, ROUND, quotas, 20_000);
    const requests = Object.fromEntries(plan.remedies.map((r) => [r.part.id, r.request]));
    // 20,000 invocations/s × 1.2 ÷ 10 per environment: the account's concurrency must be ≥ 2,400 for the rate too.
    expect(requests).toEqual({ lambda: 2400, "lambda-rate": 2400, "dynamodb-ledger-write": 48_000, "dynamodb-idempotency-write": 48_000, "dynamodb-effects-write": 48_000 });
    expect(plan.remedies.every((r) => r.kind === "increase")).toBe(true);
    expect(plan.stacks).toBe(1);
  });

  it("above every quota: the pipe's 1,000 batches (not adjustable) needs ceil(12,500 × 1.2 ÷ 1,000) = 15 stacks", () => {
    const plan = planCapacity(SETTINGS, { ...ROUND, mix: { ...ROUND.mix, hotKeyShare: 0 } }, quotas, 500_000);
    expect(byId(plan, "pipe").demand).toBeCloseTo(12_500, 6);
    expect(plan.stacks).toBe(15);
    expect(plan.remedies.find((r) => r.part.id === "pipe")?.kind).toBe("shard");
    expect(plan.remedies.find((r) => r.part.id === "lambda")?.request).toBe(60_000);
    // Per-table limits carry one stack's share: 1,000,000 WRU/s ÷ 15 × 1.2 = 80,000 in each stack.
    const ledger = plan.remedies.find((r) => r.part.id === "dynamodb-ledger-write");
    expect(ledger?.request).toBe(80_000);
    expect(ledger?.text).toContain("in each of the 15 stacks");
    // 125,000 messages in flight ÷ 15 stacks fit one queue's 120,000.
    expect(plan.remedies.find((r) => r.part.id === "sqs")).toMatchObject({ kind: "shard", request: null, text: "covered by sharding: 8,333 messages in each of the 15 stacks" });
  });

  it("a hot key over 1,000 WU/s is a hard limit: no request, no shard", () => {
    const plan = planCapacity(SETTINGS, { ...ROUND, mix: { ...ROUND.mix, hotKeyShare: 0.5 } }, quotas, 1000);
    const hot = plan.remedies.find((r) => r.part.id === "hot-key-write");
    expect(hot?.kind).toBe("hard");
    expect(hot?.request).toBeNull();
    expect(plan.saturatesFirst.id).toBe("hot-key-write");
    expect(plan.maxSustainableRate).toBe(1000);
  });

  it("an overridden quota moves the ceiling: Lambda at 5,000 (so 50,000 invocations/s) lets DynamoDB writes saturate first at 20,000 msg/s", () => {
    const plan = planCapacity(SETTINGS, ROUND, resolveQuotas(undefined, ["lambda.concurrency=5000"]), 1000);
    expect(byId(plan, "lambda-rate").limit).toBe(50_000);
    expect(plan.saturatesFirst.quota.id).toBe("dynamodb.tableWriteUnits");
    expect(plan.maxSustainableRate).toBe(20_000);
  });

  it("rounds requests up to two significant digits", () => {
    expect([niceUp(2400), niceUp(2401), niceUp(12_345), niceUp(7.2)]).toEqual([2400, 2500, 13_000, 8]);
  });
});
