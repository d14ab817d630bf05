import fc from "fast-check";
import { assertPipelineInvariants } from "@effectively-once/pipeline";
import { drawnDomain, domainCaseArbitrary } from "../../src/domain/cases";
import { domainCandidate, domainProps, DomainMode, filterPasses, type SimDomain } from "../../src/domain/space";
import { scenarioArbitrary } from "../../src/scenario/generator";
import { violations } from "../../src/oracle/model";
import { runScenario } from "../../src/run";
import { Fate, type Scenario } from "../../src/scenario/shape";
import { settingsFor, simProps } from "../../src/settings";
import { accepts, SettingsMode } from "../../src/scenario/settings-space";
import { compileFilterCriteria } from "@effectively-once/contract/pipe-filter";

const drawn = fc.sample(drawnDomain, { numRuns: 300, seed: 22 });
const fields = (d: SimDomain) => [...d.keyParts, ...d.payload];
const plain = (name: string) => /^[A-Za-z]+$/.test(name);

describe("The domain space of the simulation", () => {
  it("yields only domains the construct's own validation accepts", () => {
    for (const d of drawn) expect(() => assertPipelineInvariants(simProps({}, d))).not.toThrow();
  });

  it("draws candidates the construct refuses, and keeps none of them", () => {
    const candidates = fc.sample(domainCandidate, { numRuns: 300, seed: 22 });
    expect(candidates.filter((d) => !accepts({}, d)).length).toBeGreaterThan(20);
  });

  it("draws key fields whose JSON type varies and key expressions of every form a synth ever accepted; keeps only pure ones of one type", () => {
    const candidates = fc.sample(domainCandidate, { numRuns: 600, seed: 29 });
    const impure = (d: SimDomain) => (d.key?.extra ?? []).some(([, t]) => t.kind === "call" || t.kind === "typo");
    const mixedKey = (d: SimDomain) => d.keyParts.some((f) => f.rule.type === "string-or-integer");
    for (const call of ["$now()", "$millis()", "$random()", "$uuid()", "$lowercase("]) expect(candidates.some((d) => domainProps(d).businessKey.expression.includes(call))).toBe(true);
    expect(candidates.some((d) => (d.key?.extra ?? []).some(([, t]) => t.kind === "typo"))).toBe(true);
    expect(candidates.some((d) => mixedKey(d) && d.keyParts.some((f) => f.pool.includes("42") && f.pool.includes('"42"')))).toBe(true);
    // The construct refuses every one of them, and accepts literals, repeated reads and bare one-part keys.
    expect(candidates.filter((d) => impure(d) || mixedKey(d)).every((d) => !accepts({}, d))).toBe(true);
    expect(drawn.some(impure) || drawn.some(mixedKey)).toBe(false);
    expect(drawn.some((d) => (d.key?.extra ?? []).some(([, t]) => t.kind === "literal"))).toBe(true);
    expect(drawn.some((d) => !domainProps(d).businessKey.expression.startsWith("["))).toBe(true);
  });

  it("covers each dimension: counts, names, rules, operations, refusals, filters, key forms", () => {
    for (const n of [1, 2, 3]) {
      expect(drawn.some((d) => d.keyParts.length === n)).toBe(true);
      expect(drawn.some((d) => d.payload.length === n)).toBe(true);
    }
    const names = drawn.flatMap(fields).map((f) => f.name);
    expect(names.some(plain)).toBe(true);
    for (const hostile of ["a.b", "order-id", "x,y", "it's", 'say"hi"', "back`tick", "名前", "😀"]) expect(names).toContain(hostile);
    const rules = drawn.flatMap(fields).map((f) => f.rule);
    for (const prop of ["minLength", "maxLength", "pattern", "minimum", "maximum"]) expect(rules.some((r) => prop in r)).toBe(true);
    expect(new Set(drawn.map((d) => d.operation)).size).toBeGreaterThanOrEqual(5);
    expect(drawn.some((d) => d.refuses !== undefined)).toBe(true);
    expect(drawn.some((d) => d.filter?.on === "attribute")).toBe(true);
    expect(drawn.some((d) => d.filter?.on === "body")).toBe(true);
    expect(drawn.some((d) => d.filter === undefined)).toBe(true);
    expect(drawn.some((d) => d.lookup) && drawn.some((d) => !d.lookup)).toBe(true);
    // Pools are small and keep the rule: valid messages exist and their keys collide.
    for (const f of drawn.flatMap(fields)) expect(f.pool.length).toBeGreaterThanOrEqual(1);
  });

  it("draws valid messages padded near the queue's and the batch's byte limits, in multi-byte and escaped text", () => {
    const cases = fc.sample(domainCaseArbitrary(DomainMode.Random, SettingsMode.Random, (shape) => scenarioArbitrary({ maxOps: 20, ...shape })), { numRuns: 60, seed: 29 });
    const bodies = cases.flatMap((c) => c.scenario.ops.flatMap((o) => (o.op === "send" ? [o.body] : [])));
    const bytes = (b: string) => Buffer.byteLength(b);
    expect(bodies.some((b) => bytes(b) >= 6_000 && bytes(b) <= 6_520 && bytes(b) > b.length)).toBe(true);
    expect(bodies.some((b) => bytes(b) >= 80_000 && /😀|語|ж/u.test(b))).toBe(true);
    expect(bodies.some((b) => bytes(b) >= 6_000 && b.includes('\\"\\"'))).toBe(true);
    expect(cases.some((c) => c.settings.maxMessageBytes !== undefined && c.settings.maxMessageBytes !== 6144)).toBe(true);
  });

  it("draws the same domain for the same seed, and the payments mode draws none", () => {
    const cases = (mode: DomainMode) => fc.sample(domainCaseArbitrary(mode, SettingsMode.Default, (shape) => scenarioArbitrary({ maxOps: 4, ...shape })), { numRuns: 20, seed: 7 });
    expect(JSON.stringify(cases(DomainMode.Random))).toBe(JSON.stringify(cases(DomainMode.Random)));
    expect(cases(DomainMode.Random).every((c) => c.domain !== undefined)).toBe(true);
    expect(cases(DomainMode.Payments).every((c) => c.domain === undefined)).toBe(true);
  });

  it("reads the pipe's filter as EventBridge does: exact values on dotted paths, arrays transparent, JSON bodies only", () => {
    const body = { on: "body" as const, field: "a.b", values: ["x"] };
    expect(filterPasses(body, '{"a.b":"x"}', undefined)).toBe(true);
    expect(filterPasses(body, ' {"a.b":["y","x"]}', undefined)).toBe(true);
    expect(filterPasses(body, '{"a":{"b":"x"}}', undefined)).toBe(true);
    expect(filterPasses(body, '[{"a.b":[["x"]]}]', undefined)).toBe(true);
    expect(filterPasses(body, '{"a.b":"x "}', undefined)).toBe(false);
    expect(filterPasses(body, '{"a.b":{"c":"x"}}', undefined)).toBe(false);
    expect(filterPasses(body, '"x"', undefined)).toBe(false);
    expect(filterPasses(body, `{"a.b":"x","deep":${"[".repeat(20_000)}${"]".repeat(20_000)}}`, undefined)).toBe(true);
    const attribute = { on: "attribute" as const, name: "kind", values: ["order"] };
    expect(filterPasses(attribute, "{}", [{ name: "kind", dataType: "String", value: "order" }])).toBe(true);
    expect(filterPasses(attribute, "{}", [{ name: "kind", dataType: "String", value: "Order" }])).toBe(false);
    expect(filterPasses(attribute, "{}", undefined)).toBe(false);
  });
});

describe("A drawn domain in the simulated stack", () => {
  const domain: SimDomain = {
    keyParts: [{ name: "a.b", rule: { type: "string", maxLength: 3 }, pool: ['"x"'] }],
    payload: [{ name: "it's", rule: { type: "integer", minimum: 1 }, pool: ["1", "2"] }],
    operation: "ship-order",
    lookup: false,
    refuses: { field: "it's", value: 2 },
    filter: { on: "attribute", name: "kind", values: ["order"] },
  };
  const kind = [{ name: "kind", dataType: "String", value: "order" }];
  const scenario: Scenario = {
    seed: 0,
    pollers: 1,
    faults: [],
    ops: [
      { op: "send", body: '{"a.b":"x","it\'s":1}', attributes: kind },
      { op: "send", body: '{"it\'s":1.0,"a.b":"x"}', attributes: kind },
      { op: "send", body: '{"a.b":"x","it\'s":3}', attributes: kind },
      { op: "send", body: '{"a.b":"y","it\'s":2}', attributes: kind },
      { op: "send", body: '{"a.b":"xxxx","it\'s":1}', attributes: kind },
      { op: "send", body: '{"a.b":"z","it\'s":1}' },
      { op: "advance", ms: 60_000 },
    ],
  };

  it("agrees with the local pipe's filter on the bodies EventBridge reads alike", () => {
    const pipe = compileFilterCriteria({ Filters: [{ Pattern: JSON.stringify(domainProps({ ...domain, filter: { on: "body", field: "a.b", values: ["x"] } }).filterPatterns[0]) }] });
    for (const text of ['{"a.b":"x"}', '{"a":{"b":"x"}}', '[{"a.b":["x"]}]', '{"a.b":"y"}', '"x"', "x", '{"a.b":{"c":"x"}}']) {
      expect([text, filterPasses({ on: "body", field: "a.b", values: ["x"] }, text, undefined)]).toEqual([text, pipe({ body: text, messageAttributes: {}, attributes: {} } as never)]);
    }
  });

  it("applies, recognises, refuses, quarantines and filters as the model says, with the generic effect counted", async () => {
    expect(domainProps(domain).businessKey.expression).toBe("[`a.b`]");
    const settings = settingsFor({}, domain);
    const obs = await runScenario(settings, scenario);
    expect(obs.messages.map((m) => m.fate)).toEqual([Fate.Acked, Fate.Acked, Fate.Mismatch, Fate.Rejected, Fate.Invalid, Fate.Filtered]);
    expect(obs.charges.map((c) => c.amount)).toEqual(['[["it\'s",1]]']);
    const p = settings.props;
    expect(violations(scenario, obs, { retentionMs: p.retentionSeconds * 1000, queueRetentionMs: p.messageRetentionSeconds * 1000, rules: settings.rules })).toEqual([]);
  }, 30_000);
});
