import { createFaultPlan, createRng, describeDynamoRequest } from "../../src/faults";
import { InvalidFaultPlanError } from "../../src/faults/errors";
import { matchesDynamoRequest } from "../../src/faults/dynamo-request";
import type { DynamoRequestInfo, FaultPlanSpec } from "../../src/faults";

const chargePut: DynamoRequestInfo = describeDynamoRequest(
  "DynamoDB_20120810.PutItem",
  { TableName: "effects", Item: { pk: { S: "t1#o1" }, sk: { S: "CHARGE" }, amount: { N: "12" } } },
  "payments-1",
);

describe("Function: createRng", () => {
  it("repeats the same sequence for the same seed and differs for another seed", () => {
    // Arrange
    const a = createRng("seed-1");
    const b = createRng("seed-1");
    const c = createRng("seed-2");
    // Act
    const seqA = Array.from({ length: 5 }, () => a.next());
    const seqB = Array.from({ length: 5 }, () => b.next());
    const seqC = Array.from({ length: 5 }, () => c.next());
    // Assert
    expect(seqA).toEqual(seqB);
    expect(seqA).not.toEqual(seqC);
    for (const x of seqA) expect(x >= 0 && x < 1).toBe(true);
  });
});

describe("Function: describeDynamoRequest / matchesDynamoRequest", () => {
  it("finds tables of item, batch and transact calls", () => {
    const batch = describeDynamoRequest("DynamoDB_20120810.BatchWriteItem", {
      RequestItems: { a: [{ PutRequest: { Item: { pk: { S: "1" } } } }], b: [{ DeleteRequest: { Key: { pk: { S: "2" } } } }] },
    });
    const transact = describeDynamoRequest("DynamoDB_20120810.TransactWriteItems", {
      TransactItems: [{ Put: { TableName: "x", Item: { sk: { S: "CHARGE" } } } }, { Delete: { TableName: "y", Key: {} } }],
    });
    expect(chargePut).toMatchObject({ operation: "PutItem", tables: ["effects"], caller: "payments-1" });
    expect(batch.tables.sort()).toEqual(["a", "b"]);
    expect(transact.tables.sort()).toEqual(["x", "y"]);
    expect(matchesDynamoRequest({ table: "x", item: { sk: "CHARGE" } }, transact)).toBe(true);
    expect(matchesDynamoRequest({ table: "y", item: { sk: "CHARGE" } }, transact)).toBe(false);
  });

  it("matches on operation, table, caller, item attributes (S and N) and a predicate, all together", () => {
    expect(matchesDynamoRequest({ operation: "PutItem", table: "effects", item: { sk: "CHARGE", amount: 12 } }, chargePut)).toBe(true);
    expect(matchesDynamoRequest({ operation: ["GetItem", "PutItem"], caller: ["payments-1"] }, chargePut)).toBe(true);
    expect(matchesDynamoRequest({ operation: "UpdateItem" }, chargePut)).toBe(false);
    expect(matchesDynamoRequest({ item: { sk: "REFUND" } }, chargePut)).toBe(false);
    expect(matchesDynamoRequest({ caller: "other" }, chargePut)).toBe(false);
    expect(matchesDynamoRequest({ where: (r) => r.body.TableName === "effects" }, chargePut)).toBe(true);
    expect(matchesDynamoRequest({ where: () => false }, chargePut)).toBe(false);
  });
});

describe("Function: createFaultPlan", () => {
  it("fires a 'times' rule on the first N matches only and records what it injected", () => {
    // Arrange
    const plan = createFaultPlan({
      seed: 7,
      rules: [{ service: "lambda", id: "crash2", function: "payments", action: "crash", when: "after", times: 2 }],
    });
    // Act
    const decisions = Array.from({ length: 4 }, () => plan.decideLambda({ functionName: "payments", when: "after" }));
    const otherFunction = plan.decideLambda({ functionName: "other", when: "after" });
    const otherTiming = plan.decideLambda({ functionName: "payments", when: "before" });
    // Assert
    expect(decisions.map((d) => d?.action ?? null)).toEqual(["crash", "crash", null, null]);
    expect(otherFunction).toBeUndefined();
    expect(otherTiming).toBeUndefined();
    expect(plan.report()).toEqual({ seed: "7", total: 2, byKind: { "lambda.crash.after": 2 }, byRule: { crash2: 2 } });
    expect(plan.events().map((e) => e.seq)).toEqual([1, 2]);
  });

  it("makes probabilistic decisions reproducible from the seed, near the requested rate", () => {
    // Arrange
    const spec: FaultPlanSpec = {
      seed: "soak-42",
      rules: [{ service: "dynamodb", action: "throttle", match: { table: "ledger" }, probability: 0.3 }],
    };
    const request = describeDynamoRequest("DynamoDB_20120810.PutItem", { TableName: "ledger", Item: {} });
    const run = () => {
      const plan = createFaultPlan(spec);
      return Array.from({ length: 1000 }, () => plan.decideDynamo(request)?.failure !== undefined);
    };
    // Act
    const first = run();
    const second = run();
    const otherSeed = createFaultPlan({ ...spec, seed: "soak-43" });
    const third = Array.from({ length: 1000 }, () => otherSeed.decideDynamo(request)?.failure !== undefined);
    // Assert
    expect(first).toEqual(second);
    expect(first).not.toEqual(third);
    const rate = first.filter(Boolean).length / first.length;
    expect(rate).toBeGreaterThan(0.25);
    expect(rate).toBeLessThan(0.35);
  });

  it("combines times and probability: each match with p, at most N times", () => {
    const plan = createFaultPlan({
      seed: 1,
      rules: [{ service: "dynamodb", action: "error", probability: 0.5, times: 3 }],
    });
    const request = describeDynamoRequest("DynamoDB_20120810.GetItem", { TableName: "t", Key: {} });
    const fired = Array.from({ length: 200 }, () => plan.decideDynamo(request)).filter((d) => d !== undefined);
    expect(fired).toHaveLength(3);
    expect(fired[0]?.failure).toEqual({ ruleId: "dynamodb#0", action: "error", errorType: "InternalServerError" });
  });

  it("keeps rule streams independent: adding a rule does not change another rule's decisions", () => {
    const request = describeDynamoRequest("DynamoDB_20120810.PutItem", { TableName: "ledger", Item: {} });
    const throttle = { service: "dynamodb", id: "t", action: "throttle", match: { table: "ledger" }, probability: 0.5 } as const;
    const alone = createFaultPlan({ seed: 9, rules: [throttle] });
    const withLatency = createFaultPlan({
      seed: 9,
      rules: [{ service: "dynamodb", id: "lat", action: "latency", latencyMs: 5, probability: 0.5 }, throttle],
    });
    const a = Array.from({ length: 100 }, () => alone.decideDynamo(request)?.failure !== undefined);
    const b = Array.from({ length: 100 }, () => withLatency.decideDynamo(request)?.failure !== undefined);
    expect(a).toEqual(b);
    expect(withLatency.report().byKind["dynamodb.latency"]).toBeGreaterThan(0);
  });

  it("answers side-effect rules only at matching requests, and plain rules only around the handler", () => {
    const plan = createFaultPlan({
      seed: 3,
      rules: [
        { service: "lambda", id: "se", function: "payments", action: "crash", when: "after", sideEffect: { table: "effects", item: { sk: "CHARGE" } } },
        { service: "lambda", id: "plain", function: "payments", action: "fail", when: "before", times: 1, errorType: "Boom" },
      ],
    });
    const ledgerPut = describeDynamoRequest("DynamoDB_20120810.PutItem", { TableName: "ledger", Item: { sk: { S: "CHARGE" } } });
    expect(plan.hasSideEffectRules()).toBe(true);
    expect(plan.hasSideEffectRules("other")).toBe(false);
    expect(plan.decideLambda({ functionName: "payments", when: "after" })).toBeUndefined();
    expect(plan.decideLambda({ functionName: "payments", when: "after", request: ledgerPut })).toBeUndefined();
    expect(plan.decideLambda({ functionName: "payments", when: "after", request: chargePut })?.ruleId).toBe("se");
    expect(plan.decideLambda({ functionName: "payments", when: "before", request: chargePut })).toBeUndefined();
    expect(plan.decideLambda({ functionName: "payments", when: "before" })).toMatchObject({ ruleId: "plain", errorType: "Boom" });
  });

  it("gives Lambda delays and step latencies their own questions", () => {
    const plan = createFaultPlan({
      seed: 5,
      rules: [
        { service: "lambda", function: "payments", action: "delay", latencyMs: 250 },
        { service: "stepfunctions", action: "delay", state: ["Claim"], latencyMs: 40, times: 1 },
      ],
    });
    expect(plan.decideLambdaDelay("payments")?.latencyMs).toBe(250);
    expect(plan.decideLambda({ functionName: "payments", when: "before" })).toBeUndefined();
    expect(plan.decideStep({ state: "Invoke" })).toBeUndefined();
    expect(plan.decideStep({ state: "Claim" })).toEqual({ ruleId: "stepfunctions#1", latencyMs: 40 });
    expect(plan.decideStep({ state: "Claim" })).toBeUndefined();
    expect(plan.report().byKind).toEqual({ "lambda.delay": 1, "stepfunctions.delay": 1 });
  });

  it.each([
    [{ seed: 1, rules: [{ service: "lambda", function: "f", action: "crash" }] }, /faults\.rules\[0\]\.when/],
    [{ seed: 1, rules: [{ service: "dynamodb", action: "throttle", probability: 2 }] }, /faults\.rules\[0\]\.probability/],
    [{ seed: 1, rules: [{ service: "dynamodb", action: "throttle", error: "Nope" }] }, /faults\.rules\[0\]\.error/],
    [{ seed: 1, rules: [{ service: "lambda", function: "f", action: "delay" }] }, /faults\.rules\[0\]\.latencyMs/],
    [{ seed: 1, rules: [{ service: "s3", action: "x" }] }, /faults\.rules\[0\]\.service/],
    [{ rules: [] }, /faults\.seed/],
  ])("rejects a malformed spec with a message naming the field (%#)", (spec, field) => {
    expect(() => createFaultPlan(spec as unknown as FaultPlanSpec)).toThrow(InvalidFaultPlanError);
    expect(() => createFaultPlan(spec as unknown as FaultPlanSpec)).toThrow(field);
  });
});
