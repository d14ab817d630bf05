/**
 * Runs one scenario in a fresh simulated stack and reports what became of every message and every charge.
 * Same scenario → same run, byte for byte (`trace`): all time is virtual and every choice comes from the seed.
 */
import { releaseClaim } from "@effectively-once/ops";
import { redriveDlq } from "@effectively-once/ops";
import { keyDeriver } from "@effectively-once/ops";
import { startTtlSweeper } from "@effectively-once/local-cloud/emulators";
import type { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { PurgeQueueCommand, StartMessageMoveTaskCommand } from "@aws-sdk/client-sqs";
import { installDeterminism } from "./clock/determinism";
import { expiryFacts } from "./facts/expiry";
import { FaultKind, type Observation, type Scenario } from "./scenario/shape";
import { toSdkAttributes } from "./sqs/attributes";
import { settingsFor, SIM_NAMES, type SimSettings } from "./settings";
import { createWorld, SIM_START_MS } from "./world/world";
import type { World } from "./world/shape";
import { fates, provenance } from "./facts/fates";
import { fifoFacts } from "./facts/fifo";
import { redrivePolicyMove } from "./ops/redrive-policy-move";
import { fifoSendIds, type FifoSendIds } from "./scenario/fifo-sends";
import { OutputName } from "@effectively-once/contract";

/**
 * How long the system may take to settle after the last operation (virtual time): a day, or longer when the
 * settings let a message take longer through its receives (each a visibility timeout, a batching window, a poll).
 */
function settleLimitMs(settings: SimSettings): number {
  const p = settings.props;
  return Math.max(24 * 3600_000, 2 * (p.maxReceiveCount + 1) * (p.visibilityTimeoutSeconds + p.maximumBatchingWindowSeconds + 20) * 1000);
}
const TTL_LAG_MS = 2 * 24 * 3600_000;
/** How long before a waiting message would age out of the source queue an outage ends at the latest (stalls add hours). */
const OUTAGE_MARGIN_MS = 24 * 3600_000;

/**
 * DynamoDB deletes expired items lazily ("typically within a few days"): two days late here, so the expiry checks
 * in the conditions, not the sweep, must keep the promise.
 */
async function sweepTtl(world: World): Promise<void> {
  const sweeper = startTtlSweeper({
    client: world.dynamo.sender("ttl") as unknown as DynamoDBClient,
    tables: [
      { tableName: SIM_NAMES.ledger, attributeName: "expiresAt" },
      { tableName: SIM_NAMES.idempotency, attributeName: "expiration" },
      { tableName: SIM_NAMES.effects, attributeName: "expiresAt" },
    ],
    intervalMs: 0,
    clock: () => world.clock.now() - TTL_LAG_MS,
  });
  const swept = await sweeper.sweepOnce();
  world.log(`ttl swept ${JSON.stringify(swept.deleted)}`);
}

async function apply(world: World, scenario: Scenario, sent: string[], sentAt: number[], settleLimit: number, fifoIds?: readonly FifoSendIds[]): Promise<void> {
  const { clock, sqs, log } = world;
  for (const op of scenario.ops) {
    switch (op.op) {
      case "send": {
        const index = sent.length;
        sent.push("");
        sentAt.push(clock.now());
        const ids = fifoIds?.[index];
        try {
          const fifo = ids === undefined ? {} : { groupId: ids.group, deduplicationId: ids.dedup };
          const id = sqs.sendMessage(world.queues.queueUrl, op.body, SIM_NAMES.senders.producer, op.attributes && toSdkAttributes(op.attributes), fifo);
          sent[index] = id;
          world.roots.set(id, index);
          log(`send #${index} ${id}`);
        } catch (error) {
          log(`send #${index} refused: ${(error as Error).name}`);
        }
        break;
      }
      case "advance":
        await clock.sleep(op.ms);
        break;
      case "stall":
        world.audit.stalls.push({ at: clock.now(), ms: op.ms });
        clock.jump(op.ms);
        log(`stall ${op.ms} ms`);
        break;
      case "jump": {
        // Time passes over an idle system (a weekend, an outage of the producer): nothing is in flight.
        if (clock.now() < world.pipe.downUntil()) await clock.sleep(world.pipe.downUntil() - clock.now());
        for (let waited = 0; !idle(world) && waited < settleLimit; waited += 10_000) await clock.sleep(10_000);
        clock.jump(op.ms);
        log(`jump ${op.ms} ms`);
        await sweepTtl(world);
        break;
      }
      case "outage": {
        // The pipe receives nothing for this long; the operations after this one run meanwhile. It ends a day before
        // the oldest waiting message would age out of the source queue (the model keeps no such fate).
        const oldest = Math.min(clock.now(), ...sqs.messages(world.queues.queueUrl).map((m) => m.sentAt));
        const end = Math.min(clock.now() + op.ms, oldest + (world.ops.outputs[OutputName.MessageRetentionSeconds] as number) * 1000 - OUTAGE_MARGIN_MS);
        if (end <= clock.now()) break;
        // Registered before the pollers' waits, so it runs first when the outage ends: days passed, TTL deleted some.
        void clock.sleep(end - clock.now()).then(() => clock.track(sweepTtl(world)));
        world.pipe.begin(end);
        log(`outage until ${end - SIM_START_MS}`);
        break;
      }
      case "redrive":
        try {
          const result = await redriveDlq(world.ops, {});
          for (const moved of result.moved) {
            const { root, givenReason } = provenance(world, moved.entry.messageId);
            if (root !== undefined && moved.newMessageId) world.roots.set(moved.newMessageId, root);
            log(`redrive #${root} ${moved.entry.reason} → ${moved.newMessageId}`);
            if (root === undefined) continue;
            const { reason, firstSentAt, businessKey, originalMessageId } = moved.entry;
            world.audit.redrives.push({ at: clock.now(), message: root, givenReason, reason, firstSentAt, businessKey, named: world.roots.get(originalMessageId) });
          }
          for (const skipped of result.skipped) log(`redrive skipped #${provenance(world, skipped.messageId).root} ${skipped.reason}`);
          for (const { entry } of result.unsafe) log(`redrive refused #${provenance(world, entry.messageId).root} ${entry.reason} as unsafe`);
          log(`redrive moved ${result.moved.length} skipped ${result.skipped.length} unsafe ${result.unsafe.length} failed ${result.failed.length}`);
        } catch (error) {
          log(`redrive refused: ${(error as Error).message.slice(0, 120)}`);
        }
        break;
      case "native-move":
      case "purge":
        await nativeAction(world, op);
        break;
      case "redrive-policy":
        await redrivePolicyMove(world, op.via);
        break;
      case "rename":
        log(`rename function → ${world.renameFunction()}`);
        break;
      case "rollback":
        log(`rollback function ${world.rollbackFunction()} to the previous release`);
        break;
      case "release": {
        const key = op.message < scenario.ops.length ? await keyDeriver(world.ops.outputs[OutputName.BusinessKeyExpression] as string)(bodyOf(scenario, op.message) ?? "") : undefined;
        if (key === undefined) break;
        try {
          const result = await releaseClaim(world.ops, { key, confirm: async () => true });
          log(`release #${op.message} released=${result.released}`);
        } catch (error) {
          log(`release #${op.message} refused: ${(error as Error).name}`);
        }
        break;
      }
    }
  }
}

/**
 * SQS's own operator actions, called as the operator through the SDK's commands (the console sends the same): a
 * refusal by the queue's policy is recorded, a move maps each new copy to the sent message it descends from.
 */
async function nativeAction(world: World, op: { op: "native-move" } | { op: "purge"; queue: "source" | "dlq" }): Promise<void> {
  const { sqs, clock, log } = world;
  const client = sqs.clientAs(SIM_NAMES.senders.operator);
  const before = sqs.events.length;
  // Roots of the DLQ's messages, read before the move takes them out of the queue.
  const rootOf = (id: string) => provenance(world, id).root ?? world.roots.get(id);
  const dlqRoots = new Map(sqs.messages(world.queues.dlqUrl).map((m) => [m.id, rootOf(m.id)]));
  let refused = false;
  try {
    if (op.op === "native-move") await client.send(new StartMessageMoveTaskCommand({ SourceArn: world.queues.dlqArn }));
    else await client.send(new PurgeQueueCommand({ QueueUrl: op.queue === "dlq" ? world.queues.dlqUrl : world.queues.queueUrl }));
  } catch (error) {
    refused = (error as Error).name === "AccessDenied";
    if (!refused) throw error;
  }
  const messages: number[] = [];
  for (const e of sqs.events.slice(before)) {
    if (e.type === "moved") {
      const root = dlqRoots.get(e.from);
      if (root === undefined) continue;
      world.roots.set(e.id, root);
      messages.push(root);
    } else if (e.type === "purged") {
      const root = e.queue === world.queues.dlqUrl ? dlqRoots.get(e.id) : world.roots.get(e.id);
      if (root !== undefined) messages.push(root);
    }
  }
  world.audit.nativeActions.push({ at: clock.now(), action: op.op, refused, messages });
  log(`${op.op === "purge" ? `purge ${op.queue}` : "native-move"} ${refused ? "refused (AccessDenied)" : `took ${messages.map((m) => `#${m}`).join(",") || "nothing"}`}`);
}

/**
 * Nothing left to happen: no execution running, nothing the pipe received and has not finished (a purge can empty the
 * queue while the pipe still collects a batch: stopping then would abort the execution it starts), nothing queued.
 */
function idle(world: World): boolean {
  return world.counters.inFlight === 0 && world.counters.held === 0 && world.sqs.messages(world.queues.queueUrl).length === 0;
}

function bodyOf(scenario: Scenario, index: number): string | undefined {
  return scenario.ops.filter((o) => o.op === "send")[index]?.body as string | undefined;
}

/**
 * Concurrent work interleaves at microtask granularity, and a first run in a process takes extra microtask hops
 * (module caches of the SDK and Powertools fill on first use). One warm-up run per process, with every kind of
 * operation and fault, makes the first real run take the same path as any later one: replays match.
 */
const WARM_UP: Scenario = {
  seed: 0,
  pollers: 2,
  faults: Object.values(FaultKind).map((kind, i) => ({ message: i % 3, kind, receives: [1] })),
  ops: [
    { op: "send", body: '{"tenantId":"w","orderId":"1","amount":10,"currency":"EUR"}' },
    { op: "send", body: '{"tenantId":"w","orderId":"1","amount":11,"currency":"EUR"}' },
    { op: "send", body: '{"tenantId":"w","orderId":"2","amount":10,"currency":"EUR"}' },
    { op: "send", body: "not json", attributes: [{ name: "reason", dataType: "String", value: "rejected" }] },
    { op: "stall", ms: 120_000 },
    { op: "release", message: 2 },
    { op: "rename" },
    { op: "rollback" },
    { op: "jump", ms: 3_600_000 },
    { op: "outage", ms: 600_000 },
    { op: "redrive" },
    { op: "native-move" },
    { op: "purge", queue: "dlq" },
    { op: "redrive-policy", via: "temporary" },
  ],
};
/**
 * Once per process: the caches a first run fills are the modules', which no prop changes (a search may run every
 * scenario under other props; a replay in a fresh process then matches: tools/sim/test/determinism.test.ts).
 */
let warmed = false;

export async function runScenario(settings: SimSettings, scenario: Scenario): Promise<Observation> {
  if (!warmed) {
    warmed = true;
    // Under a drawn domain the warm-up's payments bodies are all invalid and never reach the function: warm it
    // under the example's domain first (and once only when the run's settings are the example's: the same object).
    const example = settingsFor({});
    await runOnce(example, WARM_UP);
    if (settings !== example) await runOnce(settings, WARM_UP);
  }
  return runOnce(settings, scenario);
}

async function runOnce(settings: SimSettings, scenario: Scenario): Promise<Observation> {
  const world = await createWorld(settings, scenario);
  const { clock } = world;
  const restore = installDeterminism(() => clock.now(), String(scenario.seed));
  const sent: string[] = [];
  const sentAt: number[] = [];
  const fifoIds = settings.props.fifo ? fifoSendIds(scenario, settings.props.contentBasedDeduplication) : undefined;
  try {
    world.runner.start();
    let applied = false;
    const driver = apply(world, scenario, sent, sentAt, settleLimitMs(settings), fifoIds).then(() => {
      applied = true;
    });
    let failure: unknown;
    driver.catch((error) => (failure = error));
    const quiet = (): boolean =>
      failure !== undefined || (applied && idle(world));
    await clock.run(quiet);
    if (!applied && failure === undefined) await clock.run(() => applied || failure !== undefined);
    const settleUntil = Math.max(clock.now(), world.pipe.downUntil()) + settleLimitMs(settings);
    await clock.run(quiet, settleUntil);
    if (failure !== undefined) throw failure;
    let stopped = false;
    void world.runner.stop({ gracePeriodMs: 1000 }).then(() => (stopped = true));
    await clock.run(() => stopped);
    world.sqs.expireAll();
    const fate = fates(world, sent);
    for (const [i, f] of fate.entries()) world.log(`fate #${i} ${f}`);
    return {
      messages: sent.map((id, i) => ({ fate: fate[i], sentAt: sentAt[i], faulted: world.faulted.has(i), faults: [...(world.faulted.get(i) ?? [])] })),
      charges: world.charges,
      handlerRuns: world.handlerRuns,
      deliveries: world.audit.deliveries,
      executions: world.audit.executions,
      ledger: world.audit.ledger,
      invocations: world.audit.invocations,
      sideEffects: world.sideEffects,
      stalls: world.audit.stalls,
      batchReruns: [...world.batchReruns],
      expiries: expiryFacts(world, sent),
      redrives: world.audit.redrives,
      nativeActions: world.audit.nativeActions,
      rollbacks: world.audit.rollbacks,
      ...(settings.props.fifo ? { fifo: fifoFacts(world, sent, settings.props.maxReceiveCount) } : {}),
      endedAt: clock.now(),
      trace: world.trace,
      stats: { executions: world.counters.executions, dynamoCalls: world.counters.dynamoCalls, invocations: world.counters.invocations, virtualMs: clock.now() - SIM_START_MS, timersFired: clock.firedTimers, transitions: [...world.transitions] },
    };
  } finally {
    restore();
  }
}
