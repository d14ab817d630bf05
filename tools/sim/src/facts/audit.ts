/**
 * What the model's protocol rules read, recorded as the run goes: each delivery of each message with whether its
 * execution handed it back for a retry, the ledger's history (each claim written, each completion and release that
 * landed, with the claim it replaced), and each invocation of the function with its key and result.
 */
import type { LambdaInvoker } from "@effectively-once/local-cloud/emulators";
import type { DynamoCall } from "../world/dynamo";
import type { Delivery, ExecutionFact, InvocationFact, LedgerEvent, RedriveFact } from "./records";
import { FaultKind, LEDGER_HOLDING_FAULTS, type NativeActionFact } from "../scenario/shape";




type Attr = Record<string, { S?: string }> | undefined;


export class Audit {
  readonly deliveries: Delivery[] = [];
  readonly executions: ExecutionFact[] = [];
  readonly ledger: LedgerEvent[] = [];
  readonly invocations: InvocationFact[] = [];
  /** Stalls of the whole host (scenario `stall` ops): when the clock jumped, with work in flight, and by how much. */
  readonly stalls: { at: number; ms: number }[] = [];
  /** Each DLQ message an operator's redrive moved (run.ts). */
  readonly redrives: RedriveFact[] = [];
  /** SQS's own operator actions (run.ts): a native DLQ move or a purge, refused or not. */
  readonly nativeActions: NativeActionFact[] = [];
  /** When a deploy rolled the function back to the previous release (run.ts). */
  readonly rollbacks: number[] = [];
  /** Copies the pipe's filter dropped (deleted unprocessed). */
  readonly filtered = new Set<string>();

  private readonly claimWaiters = new Map<string, (() => void)[]>();

  constructor(private readonly now: () => number) {}

  /** Resolves when the state machine next writes a claim of `key`. */
  nextClaim(key: string): Promise<void> {
    return new Promise((resolve) => this.claimWaiters.set(key, [...(this.claimWaiters.get(key) ?? []), resolve]));
  }

  /** Records an execution's records and which of them it handed back (see PipeTarget's result). */
  delivered(
    input: unknown,
    startedAt: number,
    result: { status: string; output?: unknown },
    rootOf: (messageId: string) => number | undefined,
    hardFaultsOn: (messageId: string, receive: number) => readonly FaultKind[],
  ): void {
    const records = Array.isArray(input) ? (input as { messageId?: string; attributes?: { ApproximateReceiveCount?: string; MessageGroupId?: string } }[]) : [];
    let failures: Set<string> | undefined;
    if (result.status === "SUCCEEDED") {
      const listed = (result.output as { batchItemFailures?: { itemIdentifier?: string }[] } | undefined)?.batchItemFailures;
      if (Array.isArray(listed)) failures = new Set(listed.map((f) => String(f.itemIdentifier)));
    }
    const receiveOf = (r: (typeof records)[number]) => Number(r.attributes?.ApproximateReceiveCount ?? 0);
    const faultedBatch = records.some((r) => hardFaultsOn(String(r.messageId), receiveOf(r)).length > 0);
    const answer = result.output as { batchItemFailures?: unknown } | undefined;
    const answered =
      result.status === "SUCCEEDED" &&
      answer !== null &&
      typeof answer === "object" &&
      Object.keys(answer).join() === "batchItemFailures" &&
      Array.isArray(answer.batchItemFailures) &&
      answer.batchItemFailures.every((f) => f !== null && typeof f === "object" && typeof (f as { itemIdentifier?: unknown }).itemIdentifier === "string");
    this.executions.push({ status: result.status, at: this.now(), faulted: faultedBatch, answered });
    // FIFO: the first record of each group the execution handed back; later ones of the group were held behind it.
    const firstRetried = new Map<string, string>();
    for (const r of records) {
      const message = rootOf(String(r.messageId));
      if (message === undefined) continue;
      const receive = receiveOf(r);
      const retried = failures === undefined || failures.has(String(r.messageId));
      const timedOut = result.status === "TIMED_OUT";
      const faults = hardFaultsOn(String(r.messageId), receive);
      const holdsLedger = faults.some((k) => LEDGER_HOLDING_FAULTS.includes(k));
      const group = r.attributes?.MessageGroupId;
      const heldBehind = group !== undefined && retried && result.status === "SUCCEEDED" ? firstRetried.get(group) : undefined;
      if (group !== undefined && retried && !firstRetried.has(group)) firstRetried.set(group, String(r.messageId));
      this.deliveries.push({
        message,
        copy: String(r.messageId),
        receive,
        hardFault: faults.length > 0,
        holdsLedger,
        startedAt,
        at: this.now(),
        retried,
        timedOut,
        batchFaulted: faultedBatch,
        ...(group === undefined ? {} : { group }),
        ...(heldBehind === undefined ? {} : { heldBehind }),
        ...(faults.includes(FaultKind.QuarantineFail) ? { quarantineRefused: true } : {}),
      });
    }
  }

  /**
   * Runs a state machine call to the ledger, recording what landed. Completions and releases ask for the old item
   * (ReturnValues ALL_OLD, read atomically with the write) and hand the caller the answer it asked for.
   */
  async ledgerCall(call: DynamoCall, apply: (input?: object) => Promise<object>): Promise<object> {
    const input = call.input;
    if (call.operation === "PutItem") {
      const out = await apply();
      const item = input.Item as Attr;
      if (item?.pk?.S !== undefined) {
        this.ledger.push({ kind: "claim", key: item.pk.S, claimId: item.claimId?.S, at: this.now() });
        for (const wake of this.claimWaiters.get(item.pk.S) ?? []) wake();
        this.claimWaiters.delete(item.pk.S);
      }
      return out;
    }
    if (call.operation !== "UpdateItem" && call.operation !== "DeleteItem") return apply();
    const out = (await apply({ ...input, ReturnValues: "ALL_OLD" })) as { Attributes?: Attr };
    const key = (input.Key as Attr)?.pk?.S;
    if (key !== undefined && out.Attributes) {
      this.ledger.push({ kind: call.operation === "UpdateItem" ? "complete" : "release", key, claimId: out.Attributes.claimId?.S, at: this.now() });
    }
    if (input.ReturnValues !== undefined) return out;
    const { Attributes: _old, ...answer } = out;
    return answer;
  }

  /**
   * The invoker, recording each invocation's key, span and result. A batch invocation counts as one invocation per
   * record under that record's claim: returned when its own answer (the one naming its messageId) says applied or
   * duplicate, failed when it says otherwise or the whole invocation failed; a record the answer left out had none.
   */
  invoker(inner: LambdaInvoker): LambdaInvoker {
    return async (req, signal) => {
      const startedAt = this.now();
      const event = JSON.parse(req.Payload) as { businessKey?: unknown; records?: { businessKey?: unknown; messageId?: unknown }[] };
      let abandonedAt: number | undefined;
      const abandon = () => (abandonedAt = this.now());
      signal?.addEventListener("abort", abandon, { once: true });
      const push = (key: unknown, ok: boolean): void => void this.invocations.push({ key: typeof key === "string" ? key : undefined, startedAt, endedAt: this.now(), ok, abandonedAt });
      const record = (ok: boolean, payload?: string): void => {
        signal?.removeEventListener("abort", abandon);
        if (!Array.isArray(event.records)) return push(event.businessKey, ok);
        const outcomes = ok && payload !== undefined ? (JSON.parse(payload) as { outcomes?: { messageId?: unknown; outcome?: unknown }[] }).outcomes : undefined;
        for (const r of event.records) {
          const own = Array.isArray(outcomes) ? outcomes.filter((o) => o?.messageId === r.messageId) : [];
          if (!Array.isArray(outcomes)) push(r.businessKey, false);
          else if (own.length === 1) push(r.businessKey, own[0]?.outcome === "applied" || own[0]?.outcome === "duplicate");
        }
      };
      try {
        const answer = await inner(req, signal);
        record(answer.FunctionError === undefined, answer.Payload);
        return answer;
      } catch (error) {
        record(false);
        throw error;
      }
    };
  }
}
