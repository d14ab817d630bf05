/** What a run's world holds: read by the run, the fates and the facts; built by createWorld (world/world.ts). */
import type { PipeRunner, StateMachine } from "@effectively-once/local-cloud/emulators";
import type { OpsContext } from "@effectively-once/ops";
import type { Audit } from "../facts/audit";
import type { OrderFact, SideEffectRun } from "../facts/records";
import type { SimDynamo } from "./dynamo";
import type { PipeOutage } from "./pipe-outage";
import type { Charge, FaultKind } from "../scenario/shape";
import type { SimQueues } from "../settings";
import type { SimSqs } from "../sqs/service";
import type { VirtualClock } from "../clock/virtual-clock";

export interface World {
  readonly clock: VirtualClock;
  /** The queues' names (`.fifo` in FIFO mode). */
  readonly queues: SimQueues;
  readonly sqs: SimSqs;
  readonly dynamo: SimDynamo;
  readonly machine: StateMachine;
  readonly runner: PipeRunner;
  readonly ops: OpsContext;
  readonly trace: string[];
  readonly charges: Charge[];
  /** Copy message id → index of the sent message it descends from. */
  readonly roots: Map<string, number>;
  /** Sent message → the hard faults that hit it. */
  readonly faulted: Map<number, Set<FaultKind>>;
  /** Messages a batch-mate's fault made run again (function/batch.ts). */
  readonly batchReruns: Set<number>;
  /** Every invocation that reached the handler, by sent message. */
  readonly handlerRuns: { message: number; at: number }[];
  /** Every run of the side effect (the second layer let it through). */
  readonly sideEffects: SideEffectRun[];
  /** `inFlight`: executions running; `held`: deliveries the pipe received and has not finished (still collecting its batch, or about to call its target). */
  readonly counters: { executions: number; inFlight: number; held: number; dynamoCalls: number; invocations: number };
  /** State machine transitions taken (see fuzz/coverage.ts). */
  readonly transitions: Set<string>;
  readonly audit: Audit;
  /** The pipe's outages (the `outage` op). */
  readonly pipe: PipeOutage;
  /** FIFO mode's ordering facts (facts/records.ts), in the order they happened. */
  readonly order: OrderFact[];
  /** Deploys the function again under a new name, tables kept (the `rename` op); `ops` reads the new name's outputs. */
  renameFunction(): string;
  /** Deploys the previous release's function (function/deploys.ts); returns its name. */
  rollbackFunction(): string;
  log(line: string): void;
}
