/**
 * One simulated stack, fresh per run: virtual clock, in-process DynamoDB (dynalite's code), simulated SQS, the app's
 * function code (or a drawn domain's generic effect), the rendered state machine in the project's interpreter, the
 * real pipes runner (with the construct's filter criteria), and the operator tools' context. The scheduler's choices
 * (delays of every call, hence interleavings) come from the run's seed; faults come from the scenario.
 */
import { createRng, createPipeRunner, RetryReason, createStateMachine, workflowTarget } from "@effectively-once/local-cloud/emulators";
import { simOpsContext } from "../ops/context";
import { Audit } from "../facts/audit";
import type { OrderFact, SideEffectRun } from "../facts/records";
import { transitionId } from "../fuzz/coverage";
import { createSimDynamo, DynamoError } from "./dynamo";
import { ledgerBlip, quarantineFaults } from "./fault-errors";
import { createFunctionDeploys } from "../function/deploys";
import { createPipeOutage } from "./pipe-outage";
import { ABSORBED_FAULTS, FaultKind, type Charge, type Scenario } from "../scenario/shape";
import { EFFECT_SK, OutputName, pipeFilterPatterns } from "@effectively-once/contract";
import { SIM_NAMES, type SimSettings } from "../settings";
import { SimSqs } from "../sqs/service";
import { simTableInputs } from "./tables";
import { VirtualClock } from "../clock/virtual-clock";
import { addSimQueues } from "./queues";
import type { World } from "./shape";

export const SIM_START_MS = Date.UTC(2026, 0, 1);

export async function createWorld(settings: SimSettings, scenario: Scenario): Promise<World> {
  const clock = new VirtualClock(SIM_START_MS);
  const rng = createRng(`${scenario.seed}/schedule`);
  const trace: string[] = [];
  const log = (line: string): void => {
    trace.push(`${String(clock.now() - SIM_START_MS).padStart(10)} ${line}`);
  };
  const charges: Charge[] = [];
  const roots = new Map<string, number>();
  const faulted = new Map<number, Set<FaultKind>>();
  /** Messages a batch-mate's fault made run again (function/batch.ts). */
  const batchReruns = new Set<number>();
  const handlerRuns: { message: number; at: number }[] = [];
  const sideEffects: SideEffectRun[] = [];
  const counters = { executions: 0, inFlight: 0, held: 0, dynamoCalls: 0, invocations: 0 };
  const transitions = new Set<string>();
  const audit = new Audit(() => clock.now());
  const sqs = new SimSqs(clock);
  const q = settings.queues;
  const order: OrderFact[] = [];
  const note = (kind: OrderFact["kind"], copy: string | undefined, how: string): void => void (copy !== undefined && order.push({ seq: order.length + 1, kind, copy, how }));
  // A source-queue copy leaves the queue otherwise than by its execution's answer: settled for the ordering rule. SQS's
  // move names the queue it moved the copy to (the source's DLQ).
  sqs.onEvent = (e) => {
    if (e.type === "dead-lettered" ? e.queue === q.dlqUrl : e.queue === q.queueUrl && (e.type === "purged" || e.type === "expired")) note("settled", e.id, e.type);
  };

  // The scheduler's knob: how long each call takes decides which concurrent call lands first. A slow call takes up
  // to a fifth of the default function timeout; under a shorter drawn one, the same share of it: latency orders the
  // calls, it never times the function out by itself (the timing rules count a call as milliseconds).
  const slowMs = 2000 * Math.min(1, settings.props.function.timeoutSeconds / 10);
  const delay = (): Promise<void> => {
    const r = rng.next();
    const ms = r < 0.6 ? 0 : r < 0.9 ? Math.floor(rng.next() * 20) : 50 + Math.floor(rng.next() * slowMs);
    return clock.sleep(ms);
  };
  /** `copy#receive` → the hard faults that fired on it. */
  const hardHits = new Map<string, FaultKind[]>();
  const receiveOf = (messageId: string): number => sqs.messages(q.queueUrl).find((m) => m.id === messageId)?.receiveCount ?? 0;
  const faultFor = (messageId: string, kinds: readonly FaultKind[], at?: number): FaultKind | undefined => {
    const root = roots.get(messageId);
    if (root === undefined) return undefined;
    const receive = at ?? receiveOf(messageId);
    const hit = scenario.faults.find((f) => f.message === root && kinds.includes(f.kind) && f.receives.includes(receive));
    if (hit && !ABSORBED_FAULTS.includes(hit.kind)) {
      faulted.set(root, (faulted.get(root) ?? new Set()).add(hit.kind));
      hardHits.set(`${messageId}#${receive}`, [...(hardHits.get(`${messageId}#${receive}`) ?? []), hit.kind]);
    }
    if (hit) log(`fault ${hit.kind} message #${root} receive ${receive}`);
    return hit?.kind;
  };
  // Transient faults fail the first attempts of a call site on each receive (at most as many as the state's Retry
  // absorbs, two at most), each attempt with the next error name, so a fault tests two names.
  const attempts = new Map<string, number>();
  const attemptAt = (site: string): number => {
    const n = (attempts.get(site) ?? 0) + 1;
    attempts.set(site, n);
    return n;
  };
  const firstAttempt = (site: string): boolean => attemptAt(site) === 1;
  const ledgerBlips = Math.min(2, settings.props.ledgerRetry.maxAttempts);
  // Transient failures injected per ledger call (copy, receive, operation), blips and lost answers together: never
  // more than the drawn ledgerRetry absorbs (the defaults' 3 hold the two blips and a lost answer).
  const injected = new Map<string, number>();
  const absorbed = (site: string): boolean => {
    const n = injected.get(site) ?? 0;
    if (n >= settings.props.ledgerRetry.maxAttempts) return false;
    injected.set(site, n + 1);
    return true;
  };
  const lambdaBlips = Math.min(2, settings.props.lambdaRetries);
  /** Which message a ledger call serves: the claim names its owner; later calls carry the claim id or the key. */
  const ownerOfClaim = new Map<string, string>();
  const receiveOfClaim = new Map<string, number>();
  const claimerOfKey = new Map<string, string>();
  const ledgerCaller = (input: Record<string, unknown>): string | undefined => {
    const item = input.Item as Record<string, { S?: string }> | undefined;
    if (item?.owner?.S) return item.owner.S;
    const claimId = (input.ExpressionAttributeValues as Record<string, { S?: string }> | undefined)?.[":claimId"]?.S;
    if (claimId && ownerOfClaim.has(claimId)) return ownerOfClaim.get(claimId);
    const pk = (input.Key as Record<string, { S?: string }> | undefined)?.pk?.S;
    return pk === undefined ? undefined : claimerOfKey.get(pk);
  };

  const dynamo = createSimDynamo(clock, async (call, apply) => {
    counters.dynamoCalls++;
    if (call.caller === "sfn" || call.caller === "fn") await delay();
    const item = call.input.Item as Record<string, { S?: string; N?: string }> | undefined;
    if (call.caller === "sfn" && call.input.TableName === SIM_NAMES.ledger) {
      if (call.operation === "PutItem" && item?.owner?.S && item.claimId?.S && item.pk?.S) {
        ownerOfClaim.set(item.claimId.S, item.owner.S);
        claimerOfKey.set(item.pk.S, item.owner.S);
      }
      const owner = ledgerCaller(call.input);
      // A worker's later calls belong to the receive it claimed under: another receive of the same copy (its
      // visibility ran out) may have come meanwhile.
      const claimId = (call.input.ExpressionAttributeValues as Record<string, { S?: string }> | undefined)?.[":claimId"]?.S;
      const receive = (claimId === undefined ? undefined : receiveOfClaim.get(claimId)) ?? (owner === undefined ? 0 : receiveOf(owner));
      if (call.operation === "PutItem" && item?.claimId?.S) receiveOfClaim.set(item.claimId.S, receive);
      if (owner && faultFor(owner, [FaultKind.LedgerBlip], receive)) {
        const attempt = attemptAt(`${owner}/${receive}/${call.operation}`);
        if (attempt <= ledgerBlips && absorbed(`${owner}/${receive}/${call.operation}`)) throw ledgerBlip((roots.get(owner) ?? 0) + scenario.seed, attempt);
      }
      const pk = (call.input.Key as Record<string, { S?: string }> | undefined)?.pk?.S;
      const paused = call.operation === "UpdateItem" ? [FaultKind.WorkerPause] : call.operation === "DeleteItem" ? [FaultKind.WorkerPause, FaultKind.FnHang] : [];
      if (owner && pk !== undefined && paused.length > 0 && faultFor(owner, paused, receive)) {
        const resume = new AbortController();
        await Promise.race([audit.nextClaim(pk), clock.sleep(2 * settings.props.visibilityTimeoutSeconds * 1000, resume.signal).catch(() => undefined)]);
        resume.abort();
        log(`worker of message #${roots.get(owner)} resumes`);
      }
      if (owner && call.operation !== "PutItem" && faultFor(owner, [FaultKind.LedgerReadFail], receive)) {
        throw new DynamoError("InternalServerError", "Internal server error (injected, persistent)", 500);
      }
      // The state machine's only UpdateItem is Complete, reached only after the invocation returned.
      // On the receive its claim was written under (a concurrent delivery may have moved the copy's count on).
      if (owner && call.operation === "UpdateItem" && faultFor(owner, [FaultKind.CompleteFail], receive)) {
        throw new DynamoError("InternalServerError", "Internal server error on Complete (injected, persistent)", 500);
      }
    }
    if (call.caller === "sfn" && call.operation === "PutItem" && call.input.TableName === SIM_NAMES.ledger && item?.owner?.S) {
      const fault = faultFor(item.owner.S, [FaultKind.LedgerFail, FaultKind.LedgerLostAnswer]);
      if (fault === FaultKind.LedgerFail) throw new DynamoError("InternalServerError", "Internal server error (injected)", 500);
      // Transient only while the Claim's Retry can absorb it (the drawn ledgerRetry may allow no retry at all).
      const lost = fault === FaultKind.LedgerLostAnswer && firstAttempt(`${item.owner.S}/${receiveOf(item.owner.S)}/lost-answer`);
      if (lost && absorbed(`${item.owner.S}/${receiveOf(item.owner.S)}/${call.operation}`)) {
        await audit.ledgerCall(call, apply).catch(() => undefined);
        throw new DynamoError("InternalServerError", "Internal server error after the write (injected)", 500);
      }
    }
    const out = call.caller === "sfn" && call.input.TableName === SIM_NAMES.ledger ? await audit.ledgerCall(call, apply) : await apply();
    if (call.caller === "fn" && call.operation === "PutItem" && call.input.TableName === SIM_NAMES.effects && item?.sk?.S === EFFECT_SK) {
      const root = roots.get(item.messageId?.S ?? "") ?? -1;
      const payload = item.payload?.S; // a drawn domain's generic effect records its payload (domain/effect.ts)
      charges.push({ message: root, at: clock.now(), amount: payload ?? (item.amount?.N === undefined ? undefined : Number(item.amount.N)), currency: payload === undefined ? item.currency?.S : undefined });
      note("charge", item.messageId?.S, "charge");
      log(`CHARGE message #${root} ${payload ?? `${item.amount?.N} ${item.currency?.S}`} key ${JSON.stringify(item.pk?.S)}`);
    }
    return out;
  });
  for (const input of simTableInputs()) await dynamo.createTable(input);

  const p = settings.props;
  addSimQueues(sqs, p, q, settings.construct);
  sqs.onReceive = (url, delivered) => {
    if (url !== q.queueUrl) return;
    // Only the pipe receives from the source queue: its batch holds these until it completes.
    counters.held += delivered.length;
    for (const m of delivered) {
      // Visible again once this batch's window has closed: a second, concurrent delivery to another poller. (Within
      // the window it would need a visibility timeout shorter than the window, which the construct refuses.)
      if (faultFor(m.id, [FaultKind.VisibilityExpiry])) sqs.expireVisibility(url, m.id, clock.now() + p.maximumBatchingWindowSeconds * 1000 + 1);
    }
  };

  const lambda = createFunctionDeploys({
    clock,
    dynamo,
    environment: settings.functionEnvironment,
    handlerOptions: await settings.handlerOptions(),
    timeoutSeconds: p.function.timeoutSeconds,
    blipOffset: scenario.seed,
    delay,
    faults: {
      decide: (messageId) => {
        const kind = faultFor(messageId, [FaultKind.FnCrashBefore, FaultKind.FnCrashAfter, FaultKind.FnThrottle, FaultKind.FnHang, FaultKind.FnTimeout, FaultKind.FnBlip]);
        if (kind !== FaultKind.FnBlip) return kind === undefined ? undefined : { kind, attempt: 1 };
        const attempt = attemptAt(`${messageId}/${receiveOf(messageId)}/invoke`);
        return attempt <= lambdaBlips ? { kind, attempt } : undefined;
      },
      batchRerun: (messageId) => {
        const root = roots.get(messageId);
        if (root !== undefined) batchReruns.add(root);
      },
      resultPad: (messageId) => {
        const kind = faultFor(messageId, [FaultKind.ResultOverPayload, FaultKind.ResultOverItem]);
        return kind === FaultKind.ResultOverPayload ? 300 * 1024 : kind === FaultKind.ResultOverItem ? 500_000 : 0;
      },
    },
    onInvoke: () => counters.invocations++,
    onHandler: (messageId) => handlerRuns.push({ message: roots.get(messageId) ?? -1, at: clock.now() }),
    onSideEffect: (event, runStartedAt) =>
      sideEffects.push({ key: typeof event.businessKey === "string" ? event.businessKey : undefined, message: roots.get(event.messageId) ?? -1, runStartedAt, at: clock.now() }),
  });
  // The DLQ refuses a copy's quarantine on every attempt (a hard fault) or on its first one per receive (a throttle).
  const dlqRefuses = (id: string): boolean =>
    faultFor(id, [FaultKind.QuarantineFail]) !== undefined || (faultFor(id, [FaultKind.DlqBlip]) !== undefined && firstAttempt(`${id}/${receiveOf(id)}/dlq`));
  const machine = createStateMachine(settings.compiled, {
    name: "sim-workflow",
    arn: SIM_NAMES.stateMachineArn,
    clock,
    history: false,
    onTransition: (from, to, output) => {
      transitions.add(transitionId(from, to));
      // A record's outcome, the moment its state decides it (in FIFO mode its group goes on from there).
      const decided = output as { messageId?: unknown; outcome?: unknown } | undefined;
      if (p.fifo && typeof decided?.messageId === "string" && (decided.outcome === "processed" || decided.outcome === "duplicate" || decided.outcome === "quarantined")) note("settled", decided.messageId, decided.outcome);
    },
    integrations: { dynamodb: dynamo.sender("sfn"), sqs: quarantineFaults(sqs.clientAs(SIM_NAMES.senders.stateMachine), q.dlqUrl, dlqRefuses), lambda: audit.invoker(lambda.invoker) },
  });
  const target = workflowTarget(machine, (run) => {
    counters.executions++;
    log(`execution ${run.status} ${run.status === "SUCCEEDED" ? JSON.stringify(run.output) : `${run.error}`}`);
  });
  const pipe = createPipeOutage(clock, sqs.clientAs(SIM_NAMES.senders.pipe), p.maximumBatchingWindowSeconds * 1000);
  const runner = createPipeRunner({
    name: "sim-pipe",
    sqs: pipe.client,
    queueUrl: q.queueUrl,
    queueArn: q.queueArn,
    region: SIM_NAMES.region,
    batchSize: p.batchSize,
    maximumBatchingWindowInSeconds: p.maximumBatchingWindowSeconds,
    // A mutant (mutants/redrive-path.ts) runs the stack's patterns alone, as a48d984 did.
    filterCriteria: { Filters: (settings.construct?.quarantinedCopyPattern === false ? p.filterPatterns : pipeFilterPatterns(p.filterPatterns)).map((pattern) => ({ Pattern: JSON.stringify(pattern) })) },
    invocationType: "REQUEST_RESPONSE",
    target: async (input, ctx) => {
      counters.inFlight++;
      try {
        const startedAt = clock.now();
        const result = await target(input, ctx);
        // At executionTimeoutSeconds 300 the pipe's own 5-minute limit and the execution's end at once and the pipe's
        // may win: the execution ran out of time either way, and the whole batch comes back (docs/guarantees.md).
        const pipeTimedOut = ctx.signal.aborted && (ctx.signal.reason as { reason?: string } | undefined)?.reason === RetryReason.PipeTimeout;
        audit.delivered(input, startedAt, pipeTimedOut ? { ...result, status: "TIMED_OUT" } : result, (id) => roots.get(id), (id, receive) => hardHits.get(`${id}#${receive}`) ?? []);
        return result;
      } finally {
        counters.inFlight--;
      }
    },
    concurrency: scenario.pollers,
    clock,
    onEvent: (e) => {
      if (e.type === "batch-received") log(`batch ${e.messageIds.map((id) => `#${roots.get(id)}`).join(",")}`);
      if (e.type === "batch-completed") counters.held -= e.received;
      if (e.type !== "records-filtered") return;
      for (const id of e.messageIds) {
        audit.filtered.add(id);
        log(`filtered #${roots.get(id)}`);
        note("settled", id, "filtered");
      }
    },
  });
  const firstDeploy = lambda.configuration();
  const functionConfiguration = async (name: string) => {
    const now = lambda.configuration();
    // A mutant (mutants/redrive-path.ts) counts the first deploy's ids whatever runs now, as ops did from the outputs.
    const deployed = settings.construct?.opsCountsFirstDeployIds ? { ...firstDeploy, functionName: now.functionName } : now;
    if (name !== deployed.functionName) throw Object.assign(new Error(`Function not found: ${name}`), { name: "ResourceNotFoundException" });
    return deployed;
  };
  const ops = simOpsContext({ sqs, dynamo, props: p, clock, functionConfiguration });
  const renameFunction = (): string => {
    const name = lambda.rename();
    // What `terraform output` says after the deploy, which `ops` reads the stack by.
    (ops.outputs as Record<string, unknown>)[OutputName.FunctionName] = name;
    return name;
  };
  const rollbackFunction = (): string => {
    audit.rollbacks.push(clock.now());
    return lambda.rollback();
  };
  return { clock, queues: q, sqs, dynamo, machine, runner, ops, trace, charges, roots, faulted, batchReruns, handlerRuns, sideEffects, counters, transitions, audit, pipe, renameFunction, rollbackFunction, log, order };
}
