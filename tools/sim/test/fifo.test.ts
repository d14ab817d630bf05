import { fifoMutants, FIFO_MUTATE_SETTINGS } from "../src/mutants/fifo";
import { oracleConfig } from "../src/fuzz/search";
import { violations } from "../src/oracle/model";
import { runScenario } from "../src/run";
import { Fate, FaultKind, type Observation, type Scenario } from "../src/scenario/shape";
import { settingsFor, simSettings, type SimSettings } from "../src/settings";
import { renderPipelineDefinition } from "@effectively-once/statemachines";

/** The simulation in FIFO mode: the ordering row, the last receive and SQS's deduplication, each rule both ways. */
const body = (orderId: string, amount = 10) => JSON.stringify({ tenantId: "t", orderId, amount, currency: "EUR" });
const send = (orderId: string, group: string, dedup = orderId) => ({ op: "send" as const, body: body(orderId), group, dedup });

/** Group g: o1, o2, o3 in a batch of four with o4 of group h; o1 fails its first two receives. */
const HELD: Scenario = {
  seed: 3,
  pollers: 1,
  faults: [{ message: 0, kind: FaultKind.FnCrashBefore, receives: [1, 2] }],
  ops: [send("o1", "g"), send("o2", "g"), send("o4", "h"), send("o3", "g")],
};
/** o1 fails every receive (a poison message) with o2 behind it in its group. */
const POISON: Scenario = {
  seed: 4,
  pollers: 1,
  faults: [{ message: 0, kind: FaultKind.FnThrottle, receives: [1, 2, 3, 4, 5] }],
  ops: [send("p1", "g"), send("p2", "g")],
};

const mutant = (id: string): SimSettings => {
  const m = fifoMutants().find((x) => x.id === id);
  if (!m) throw new Error(`no mutant ${id}`);
  return simSettings(FIFO_MUTATE_SETTINGS, (p) => m.apply(renderPipelineDefinition(p)));
};
const charged = (obs: Observation) => obs.charges.map((c) => c.message);
const judge = async (settings: SimSettings, scenario: Scenario) => {
  const obs = await runScenario(settings, scenario);
  return { obs, found: violations(scenario, obs, oracleConfig(settings)).map((v) => v.what) };
};

describe("Simulation, FIFO mode", () => {
  const fifo = settingsFor(FIFO_MUTATE_SETTINGS);

  it("applies a group in send order across retries, holding later records behind a retried one (no violation)", async () => {
    const { obs, found } = await judge(fifo, HELD);
    expect(found).toEqual([]);
    expect(charged(obs).filter((m) => m !== 2)).toEqual([0, 1, 3]);
    expect(obs.deliveries.filter((d) => d.heldBehind !== undefined).map((d) => d.message)).toEqual(expect.arrayContaining([1, 3]));
  });

  it("sets a poison message aside on its last receive and applies the one behind it (no violation)", async () => {
    const { obs, found } = await judge(fifo, POISON);
    expect(found).toEqual([]);
    expect(obs.messages.map((m) => m.fate)).toEqual([Fate.RetriesExhausted, Fate.Acked]);
  });

  it("a quarantine that fails on every receive: SQS moves the record and the one held behind it, then the group goes on (no violation)", async () => {
    // The DLQ refuses q1's quarantine each time: on its last receive it is handed back with the rest of its batch (q2 to
    // q4, batch 4) held behind it, SQS moves them all at the next receive (each is set aside: the DLQ breaks order), and
    // q5, outside that batch, is applied.
    const refused: Scenario = {
      seed: 6,
      pollers: 1,
      faults: [{ message: 0, kind: FaultKind.QuarantineFail, receives: [1, 2, 3, 4, 5] }],
      ops: [{ op: "send", body: "not json", group: "g", dedup: "q1" }, send("q2", "g"), send("q3", "g"), send("q4", "g"), send("q5", "g")],
    };
    const { obs, found } = await judge(fifo, refused);
    expect(found).toEqual([]);
    expect(obs.messages.map((m) => m.fate)).toEqual([...Array(4).fill(Fate.RetriesExhausted), Fate.Acked]);
  });

  it.each([
    ["FIFO:group-records-in-parallel", HELD, /FIFO order broken/],
    ["FIFO:no-hold", HELD, /FIFO order broken/],
    ["FIFO:reverse-order", HELD, /FIFO order broken/],
    ["FIFO:hold-next-only", HELD, /never charged|FIFO order broken/],
    ["FIFO:held-as-processed", HELD, /never charged/],
    ["FIFO:last-receive-retried", POISON, /handed back on its last receive/],
  ])("%s breaks a promise the model names", async (id, scenario, what) => {
    const { found } = await judge(mutant(id), scenario);
    expect(found.join("\n")).toMatch(what);
  });

  it("allows SQS to drop a repeated deduplication id within 5 minutes, and only then", async () => {
    const repeat: Scenario = { seed: 5, pollers: 1, faults: [], ops: [send("d1", "g", "same"), send("d2", "g", "same"), { op: "advance", ms: 301_000 }, send("d3", "g", "same")] };
    const { obs, found } = await judge(fifo, repeat);
    expect(found).toEqual([]);
    expect(obs.messages.map((m) => m.fate)).toEqual([Fate.Acked, Fate.Deduplicated, Fate.Acked]);
  });
});
