/**
 * The construct's props a scenario runs under, drawn from the space the synth accepts. Candidates are drawn around
 * the defaults and around each other (a visibility timeout a few times the execution's, a retention a few receives
 * long, a DLQ retention a day past the source queue's), and independently across SQS's own ranges, so both sides of
 * every boundary are met; the construct's own `resolveProps` + `assertPipelineInvariants` keep what the synth
 * accepts (one owner of the rules: nothing here restates one). Undefined = the construct's default.
 */
import fc from "fast-check";
import type { pipelineAccepts as PipelineAccepts } from "@effectively-once/pipeline";
import type { Scenario } from "./shape";
import type { SimDomain } from "../domain/space";
import { simProps, type PropsOverrides } from "../settings";

const DAY = 86_400;
/** SQS's largest retention (both queues). */
const SQS_MAX_RETENTION = 14 * DAY;

/**
 * Which props the scenarios run under: `default` only the example's (the search of earlier rounds, whose seeds and
 * paths replay unchanged), `random` every scenario its own drawn props, `mixed` half and half (`npm run sim:search`).
 */
export const SettingsMode = { Default: "default", Mixed: "mixed", Random: "random" } as const;
export type SettingsMode = (typeof SettingsMode)[keyof typeof SettingsMode];

let pipelineAccepts: typeof PipelineAccepts | undefined;

/** Whether the synth accepts these props (under a drawn domain, if any): the construct's own checks decide. */
export function accepts(overrides: PropsOverrides, domain?: SimDomain): boolean {
  // The construct's main entry loads cdktf and the construct (half a second): loaded at the first check, so a run
  // under the default props never loads it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy require: a static import would load it with the search
  pipelineAccepts ??= (require("@effectively-once/pipeline") as typeof import("@effectively-once/pipeline")).pipelineAccepts;
  return pipelineAccepts(simProps(overrides, domain));
}

/** A third of the time the prop keeps its default. */
const maybe = <T>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> => fc.option(arbitrary, { nil: undefined, freq: 3 });

/** A value relative to another prop (`times` it, plus `plus` seconds), or an absolute one. */
type Drawn = { readonly times: number; readonly plus: number } | { readonly seconds: number };
const relative = (times: readonly number[], plus: readonly number[], seconds: readonly number[]): fc.Arbitrary<Drawn> =>
  fc.oneof(
    { weight: 3, arbitrary: fc.record({ times: fc.constantFrom(...times), plus: fc.constantFrom(...plus) }) },
    { weight: 1, arbitrary: fc.record({ seconds: fc.constantFrom(...seconds) }) },
  );
const valueOf = (d: Drawn | undefined, base: number, max = Number.POSITIVE_INFINITY): number | undefined =>
  d === undefined ? undefined : "seconds" in d ? d.seconds : Math.min(max, Math.round(d.times * base + d.plus));

const recipe = fc.record({
  functionTimeout: maybe(fc.constantFrom(1, 2, 3, 5, 20, 30)),
  lambdaRetries: maybe(fc.constantFrom(0, 1, 3, 5)),
  ledgerRetry: maybe(
    fc.constantFrom(
      { intervalSeconds: 1, maxAttempts: 0, backoffRate: 1 },
      { intervalSeconds: 1, maxAttempts: 1, backoffRate: 1 },
      { intervalSeconds: 1, maxAttempts: 2, backoffRate: 1.5 },
      { intervalSeconds: 2, maxAttempts: 3, backoffRate: 2 },
      { intervalSeconds: 1, maxAttempts: 5, backoffRate: 2 },
    ),
  ),
  batchSize: maybe(fc.integer({ min: 1, max: 10 })),
  // Around the byte bound of each batch size (limits.ts; 6,520 at 10, 85,163 at 1) and the old 120 KiB default.
  maxMessageBytes: maybe(fc.constantFrom(1024, 4096, 6144, 6520, 8705, 15258, 20_000, 41_473, 85_163, 100_000, 122_880, 129_024)),
  maxConcurrency: maybe(fc.constantFrom(1, 2, 3, 5, 10, 40)),
  window: maybe(fc.constantFrom(0, 2, 5, 20, 60, 300)),
  executionTimeout: maybe(fc.constantFrom(5, 10, 20, 30, 45, 60, 120, 200, 300)),
  visibility: maybe(relative([6, 7, 10], [0, 1, 60], [30, 600, 3600, 43_200])),
  lease: maybe(relative([0.1, 0.5, 0.9, 1], [0, -1], [1, 5, 30, 60, 120, 600])),
  maxReceiveCount: maybe(fc.constantFrom(6, 7, 10)),
  ageAlarm: maybe(fc.constantFrom(1, 60, 3600, DAY)),
  // Receives' worth of the visibility timeout plus an age alarm's worth (the values drawn for it) and the long poll
  // the synth adds (20 s: so the bound itself is drawn), or any retention.
  messageRetention: maybe(relative([1, 3, 5, 6, 7, 10, 20], [0, 1, 21, 60, 80, 600, 620, 3600, 3620], [60, 600, 3600, DAY, 7 * DAY, 13 * DAY, SQS_MAX_RETENTION])),
  deadLetterRetention: maybe(relative([1], [0, DAY - 1, DAY, 2 * DAY, 10 * DAY], [60, 3600, DAY, 4 * DAY, 7 * DAY])),
  retention: maybe(relative([1], [0, -1, DAY], [DAY, 30 * DAY, 365 * DAY])),
  // The opt-outs of the queue policies, rarely: such a stack's findings are set aside by name (oracle/opt-outs.ts).
  allowUnguardedDlqMoves: fc.constantFrom<true | undefined>(undefined, undefined, undefined, undefined, undefined, undefined, undefined, true),
  allowQueuePurge: fc.constantFrom<true | undefined>(undefined, undefined, undefined, undefined, undefined, undefined, undefined, true),
  // FIFO mode in about a third of the draws, with content-based deduplication and high-throughput mode either way.
  fifo: fc.option(fc.record({ contentBasedDeduplication: fc.boolean(), highThroughputFifo: fc.boolean() }), { nil: undefined, freq: 2 }),
  // Standard mode: one invocation per batch (the default, left unset) in about half the draws, the opt-out in the
  // other half (FIFO invokes per record).
  batchInvocation: fc.boolean(),
});

type Recipe = typeof recipe extends fc.Arbitrary<infer R> ? R : never;

/** Each relative value on the value its base resolved to (the construct's own defaults included). */
function overridesOf(r: Recipe): PropsOverrides {
  let o: PropsOverrides = {
    ...(r.functionTimeout === undefined ? {} : { function: { timeoutSeconds: r.functionTimeout } }),
    lambdaRetries: r.lambdaRetries,
    ledgerRetry: r.ledgerRetry,
    batchSize: r.batchSize,
    maxMessageBytes: r.maxMessageBytes,
    maxConcurrency: r.maxConcurrency,
    maximumBatchingWindowSeconds: r.window,
    executionTimeoutSeconds: r.executionTimeout,
    maxReceiveCount: r.maxReceiveCount,
    oldestMessageAgeAlarmSeconds: r.ageAlarm,
    allowUnguardedDlqMoves: r.allowUnguardedDlqMoves,
    allowQueuePurge: r.allowQueuePurge,
    ...(r.fifo ? { fifo: true, contentBasedDeduplication: r.fifo.contentBasedDeduplication || undefined, highThroughputFifo: r.fifo.highThroughputFifo || undefined } : { batchInvocation: r.batchInvocation ? undefined : false }),
  };
  // A prop left at its default sets nothing, so it needs no resolution (a resolution per step is most of a draw's cost).
  const step = (drawn: Drawn | undefined, patch: (p: ReturnType<typeof simProps>) => PropsOverrides): void => {
    if (drawn !== undefined) o = { ...o, ...patch(simProps(o)) };
  };
  step(r.visibility, (p) => ({ visibilityTimeoutSeconds: valueOf(r.visibility, p.executionTimeoutSeconds) }));
  step(r.lease, (p) => ({ leaseSeconds: valueOf(r.lease, p.visibilityTimeoutSeconds - p.maximumBatchingWindowSeconds) }));
  step(r.messageRetention, (p) => ({ messageRetentionSeconds: valueOf(r.messageRetention, p.visibilityTimeoutSeconds, SQS_MAX_RETENTION) }));
  step(r.deadLetterRetention, (p) => ({ deadLetterRetentionSeconds: valueOf(r.deadLetterRetention, p.messageRetentionSeconds, SQS_MAX_RETENTION) }));
  step(r.retention, (p) => ({ retentionSeconds: valueOf(r.retention, p.deadLetterRetentionSeconds) }));
  // Only the props set: equal settings have equal canonical keys (settings.ts).
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as PropsOverrides;
}

/** Drawn props the synth accepts (about 4 in a hundred candidates: each refused one costs its rules up to the first problem). */
export const drawnSettings: fc.Arbitrary<PropsOverrides> = recipe.map(overridesOf).filter((o) => accepts(o));

/** The props of one scenario under a mode (the `default` mode draws nothing, so older replays hold). */
export function settingsArbitrary(mode: SettingsMode): fc.Arbitrary<PropsOverrides> {
  if (mode === SettingsMode.Default) return fc.constant({});
  if (mode === SettingsMode.Random) return drawnSettings;
  return fc.oneof({ weight: 1, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: drawnSettings });
}

/** A scenario and the props it runs under: a replay regenerates both. */
export interface SimCase {
  readonly settings: PropsOverrides;
  readonly scenario: Scenario;
  /** The domain it runs under (domain/space.ts); none: the payments example's. */
  readonly domain?: SimDomain;
}

/**
 * The generator's poison message fails all five receives; under a larger `maxReceiveCount` it fails every receive
 * the drawn queue allows, so it still leaves only through the DLQ.
 */
export function fitScenario(overrides: PropsOverrides, scenario: Scenario): Scenario {
  const receives = simProps(overrides).maxReceiveCount;
  if (receives === 5) return scenario;
  const all = Array.from({ length: receives }, (_, i) => i + 1);
  const poison = (r: readonly number[]): boolean => r.length === 5 && [1, 2, 3, 4, 5].every((n) => r.includes(n));
  return { ...scenario, faults: scenario.faults.map((f) => (poison(f.receives) ? { ...f, receives: all } : f)) };
}

/** Cases of a mode: the scenarios of `scenarios`, each with its props (in `default` mode, the scenarios' own draw). */
export function caseArbitrary(mode: SettingsMode, scenarios: fc.Arbitrary<Scenario>): fc.Arbitrary<SimCase> {
  if (mode === SettingsMode.Default) return scenarios.map((scenario) => ({ settings: {}, scenario }));
  return fc.tuple(settingsArbitrary(mode), scenarios).map(([settings, scenario]) => ({ settings, scenario: fitScenario(settings, scenario) }));
}
