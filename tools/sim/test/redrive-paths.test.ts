/**
 * SQS's redrive-policy path in the simulation (docs/guarantees.md, "paths back from the DLQ"): the four histories the
 * review of a48d984 reproduced, each as the search shrank it (`npm run sim:search -- --focus redrive-paths --mutant
 * a48d984 --seed 20261201 --hunt <class>`). Under a48d984's rules (the `Rules/a48d984:every-path-open` mutant: no
 * RedriveAllowPolicy on the source queue, the stack's filter alone, the quarantine's attributes never read) each breaks
 * the guarantee; under the stack's own rules each keeps it.
 */
import { classify, HoleClass } from "../src/fuzz/classify";
import { checkScenario } from "../src/fuzz/search";
import { mutantById, mutantSettingsOf } from "../src/mutants/mutate";
import { PER_RECORD_MUTATE_SETTINGS } from "../src/mutants/batch";
import type { Op, Scenario } from "../src/scenario/shape";
import { settingsFor, type PropsOverrides } from "../src/settings";

const HOUR = 3_600_000;
const ROUTED = [{ name: "eventType", dataType: "String", value: "order" }];
const charge = (amount: number, reversed = false): Op => ({
  op: "send",
  body: reversed ? JSON.stringify({ currency: "EUR", amount, orderId: "o", tenantId: "a" }) : JSON.stringify({ tenantId: "a", orderId: "o", amount, currency: "EUR" }),
  attributes: ROUTED,
});
const jump = (hours: number): Op => ({ op: "jump", ms: hours * HOUR });
const scenario = (...ops: Op[]): Scenario => ({ seed: 0, pollers: 1, faults: [], ops });
const FILTER: PropsOverrides = { filterPatterns: [{ messageAttributes: { eventType: { stringValue: ["order"] } } }] };

/** (a)-(d): the class each must show, the props it runs under, and the scenario. */
const HISTORIES: readonly (readonly [string, HoleClass, PropsOverrides, Scenario])[] = [
  ["(a) a conflict moved straight back an hour later, under a filter on a message attribute", HoleClass.MovedBackFiltered, FILTER, scenario(charge(10), charge(20, true), jump(1), { op: "redrive-policy", via: "direct" })],
  ["(b) a conflict moved straight back on day 4, its first enqueue time kept", HoleClass.MovedBackExpired, {}, scenario(charge(10), charge(20, true), jump(96), { op: "redrive-policy", via: "direct" })],
  ["(c) a conflict of day 4 moved back through a temporary queue on day 16", HoleClass.MovedBackViaTemporary, {}, scenario(charge(10), jump(104), charge(20, true), jump(280), { op: "redrive-policy", via: "temporary" })],
  ["(d) FIFO: a conflict of day 8 moved straight back on day 20, its enqueue time restarted", HoleClass.MovedBackDirect, { fifo: true }, scenario(charge(10), jump(192), charge(20, true), jump(288), { op: "redrive-policy", via: "direct" })],
];

describe("Simulation: quarantined copies moved back by SQS's redrive-policy path", () => {
  const a48d984 = mutantSettingsOf(mutantById("a48d984"));

  it.each(HISTORIES)("%s: under a48d984's rules the model finds it", async (_name, hole, props, s) => {
    // The mutant edits the per-record definition's record states (mutate.ts runs it under the opt-out, too).
    const thrown = await checkScenario(a48d984({ ...PER_RECORD_MUTATE_SETTINGS, ...props }), s).then(
      () => undefined,
      (error: Error & { found?: Parameters<typeof classify>[1] }) => error,
    );
    expect(thrown?.name).toBe("ViolationFound");
    expect(classify(s, thrown?.found ?? [])).toContain(hole);
  });

  it.each(HISTORIES)("%s: under the stack's rules the pipeline keeps its promise", async (_name, _hole, props, s) => {
    await expect(checkScenario(settingsFor(props), s)).resolves.toBeDefined();
  });
});
