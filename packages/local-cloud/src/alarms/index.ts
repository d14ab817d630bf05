/**
 * The local cloud's CloudWatch: the metrics the stack's alarms read and the alarms themselves, evaluated on the
 * cloud's clock (README.md says what is implemented and what is left out).
 *
 * @example
 * const cloud = await startLocalCloud({ stackFile });
 * await publishAndDrain(cloud);                       // a message is quarantined
 * await cloud.alarms.advance(24 * 3600);              // an idle day later (the clock moves, minute by minute)
 * cloud.alarms.state("payments-dlq-depth");           // "ALARM"
 * cloud.alarms.fired();                               // every transition to ALARM, with its reason
 *
 * Publishing more metrics (e.g. a function's EMF): `cloud.alarms.store.put({ namespace, metricName, dimensions, value,
 * at })`; the next evaluation reads them.
 */
import type { SQSClient } from "@aws-sdk/client-sqs";
import type { SharedClock } from "../clock";
import type { ProvisionedMonitoring } from "../provision/monitoring";
import { readAlarm } from "./alarm-definition";
import type { DescribedAlarm } from "./describe-endpoint";
import { AlarmEvaluator, type AlarmState, type AlarmTransition } from "./evaluate";
import { MetricStore } from "./metric-store";
import { LocalSchedules } from "./schedules";
import { SqsMetrics } from "./sqs-metrics";

export { MetricStore, type Datapoint, type MetricId, type Statistic } from "./metric-store";
export type { AlarmState, AlarmTransition } from "./evaluate";
export { readAlarm, AlarmDefinitionError, type AlarmDefinition } from "./alarm-definition";
export { evaluateMath, MetricMathError } from "./metric-math";
export { countedInvoke, countExecution, pipeMetricsListener } from "./service-metrics";
export { logFilterCounter } from "./log-filters";
export { startCloudWatchEndpoint, type CloudWatchEndpoint } from "./describe-endpoint";

const MINUTE_MS = 60_000;

/** What `LocalCloud.alarms` offers. */
export interface LocalAlarms {
  /** The metric store every local service publishes to. */
  readonly store: MetricStore;
  /** Samples SQS, runs due schedules and evaluates every alarm now; returns the transitions. */
  tick(): Promise<AlarmTransition[]>;
  /** Moves the cloud's clock forward `seconds`, a minute at a time, ticking after each minute (drain the cloud first). */
  advance(seconds: number): Promise<AlarmTransition[]>;
  /** The current state of the alarm named `name` (its `alarm_name`). */
  state(name: string): AlarmState;
  /** Every alarm's state, by name. */
  states(): ReadonlyMap<string, AlarmState>;
  /** Every transition so far, oldest first. */
  history(): readonly AlarmTransition[];
  /** The transitions to ALARM so far: what would have paged. */
  fired(): readonly AlarmTransition[];
  /** Calls the schedules made, by schedule name. */
  scheduleRuns(): ReadonlyMap<string, number>;
  /** Every alarm's definition, state, and its last change (reason, time): what DescribeAlarms answers. */
  describe(): readonly DescribedAlarm[];
}


export function createLocalAlarms(monitoring: ProvisionedMonitoring, deps: { sqsEndpoint: string; sqs: SQSClient; clock: SharedClock; store?: MetricStore }): LocalAlarms {
  const store = deps.store ?? new MetricStore();
  const evaluators = monitoring.alarms.map((r) => new AlarmEvaluator(readAlarm(r.address, r.body)));
  const schedules = new LocalSchedules(monitoring.schedules, deps.sqs, deps.clock.now());
  const sqsMetrics = new SqsMetrics(deps.sqsEndpoint);
  const history: AlarmTransition[] = [];
  const createdAt = deps.clock.now();
  const byName = (name: string) => evaluators.find((e) => e.definition.name === name) ?? (() => { throw new Error(`no alarm named ${name} (alarms: ${evaluators.map((e) => e.definition.name).join(", ")})`); })();
  const tick = async () => {
    const now = deps.clock.now();
    await schedules.runDue(now);
    await sqsMetrics.sample(store, now);
    const changed = evaluators.map((e) => e.evaluate(store, now)).filter((t): t is AlarmTransition => t !== undefined);
    history.push(...changed);
    return changed;
  };
  return {
    store,
    tick,
    async advance(seconds) {
      const changed: AlarmTransition[] = [];
      for (let left = seconds * 1000; left > 0; left -= MINUTE_MS) {
        deps.clock.advance(Math.min(left, MINUTE_MS) / 1000);
        changed.push(...(await tick()));
      }
      return changed;
    },
    state: (name) => byName(name).state,
    states: () => new Map(evaluators.map((e) => [e.definition.name, e.state])),
    history: () => history,
    fired: () => history.filter((t) => t.to === "ALARM"),
    scheduleRuns: () => schedules.runs,
    describe: () =>
      evaluators.map((e) => {
        const last = history.filter((t) => t.alarm === e.definition.name).at(-1);
        return { definition: e.definition, state: e.state, reason: last?.reason ?? "Unchecked: Initial alarm creation", updatedAt: last?.at ?? createdAt };
      }),
  };
}
