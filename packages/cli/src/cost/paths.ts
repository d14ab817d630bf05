/**
 * What each record path does, call by call, read off `statemachines/pipeline.asl.json`, `examples/payments/functions/` and
 * the Powertools DynamoDB persistence layer. The empirical test (packages/cli/test/cost/path-calls.test.ts) counts the same calls
 * on the local cloud's DynamoDB proxy.
 */

export const Path = {
  /** A key seen for the first time: claimed, applied by the function, completed. */
  NewKey: "new-key",
  /** A key already applied with the same payload: the claim fails, the inspect reads COMPLETED, acknowledged. */
  Duplicate: "duplicate",
  /** The key is held by an in-flight message: the claim fails, the inspect reads IN_PROGRESS, the record comes back. */
  Retry: "retry",
  /** Same key, different payload: claim fails, inspect, quarantined (payload-mismatch) with one DLQ send. */
  Quarantine: "quarantine",
  /** Unparseable body: quarantined (invalid-message) without touching DynamoDB. */
  Invalid: "invalid-message",
} as const;
export type Path = (typeof Path)[keyof typeof Path];

export const PATHS: readonly Path[] = Object.values(Path);

export const Table = { Ledger: "ledger", Idempotency: "idempotency", Effects: "effects" } as const;
export type Table = (typeof Table)[keyof typeof Table];

export const ItemKind = { Ledger: "ledger", Idempotency: "idempotency", Charge: "charge", Call: "call" } as const;
export type ItemKind = (typeof ItemKind)[keyof typeof ItemKind];

export const Caller = { Workflow: "workflow", Function: "function", Guard: "guard" } as const;
export type Caller = (typeof Caller)[keyof typeof Caller];

export interface DynamoCall {
  readonly table: Table;
  readonly operation: "PutItem" | "GetItem" | "UpdateItem" | "DeleteItem";
  readonly item: ItemKind;
  /** Reads only: strongly consistent (1 RRU per 4 KB) or eventually consistent (half). */
  readonly consistent?: boolean;
  readonly by: Caller;
  readonly what: string;
}

/** One state the execution passes through, as far as duration and log events go. */
export const Step = {
  Pass: "pass",
  Choice: "choice",
  /** One-branch Parallel around a Pass (Parse). */
  Parallel: "parallel",
  /** The same Parallel whose branch fails and is caught (unparseable body). */
  ParallelCaught: "parallel-caught",
  Dynamo: "dynamodb",
  /** A DynamoDB task that fails with a caught error (ConditionalCheckFailedException on Claim). */
  DynamoCaught: "dynamodb-caught",
  Sqs: "sqs",
  LambdaDownstream: "lambda-downstream",
  LambdaGuard: "lambda-guard",
} as const;
export type Step = (typeof Step)[keyof typeof Step];

export interface PathProfile {
  readonly path: Path;
  readonly dynamo: readonly DynamoCall[];
  readonly downstreamInvocations: number;
  readonly guardInvocations: number;
  readonly dlqSends: number;
  /** False for `retry`: the record is reported as a batch item failure and not deleted. */
  readonly acknowledged: boolean;
  readonly steps: readonly Step[];
}

const claim = (by: Caller): DynamoCall => ({ table: Table.Ledger, operation: "PutItem", item: ItemKind.Ledger, by, what: "claim (conditional put)" });
const claimFailed = (by: Caller): DynamoCall => ({ ...claim(by), what: "claim, condition fails (still billed)" });
const inspect = (by: Caller): DynamoCall => ({ table: Table.Ledger, operation: "GetItem", item: ItemKind.Ledger, consistent: true, by, what: "inspect the holder (consistent read)" });
const complete: DynamoCall = { table: Table.Ledger, operation: "UpdateItem", item: ItemKind.Ledger, by: Caller.Workflow, what: "complete the claim" };
/** Powertools INPROGRESS put, the downstream's EFFECT and CALL puts, Powertools COMPLETED update. */
const applyInFunction: readonly DynamoCall[] = [
  { table: Table.Idempotency, operation: "PutItem", item: ItemKind.Idempotency, by: Caller.Function, what: "Powertools INPROGRESS record (conditional put)" },
  { table: Table.Effects, operation: "PutItem", item: ItemKind.Charge, by: Caller.Function, what: "EFFECT item (conditional put)" },
  { table: Table.Effects, operation: "PutItem", item: ItemKind.Call, by: Caller.Function, what: "CALL item (one per downstream call)" },
  { table: Table.Idempotency, operation: "UpdateItem", item: ItemKind.Idempotency, by: Caller.Function, what: "Powertools COMPLETED with the result" },
];

const { Workflow, Guard } = Caller;

/** A record whose claim fails: read the holder, then end as a duplicate, a retry or a quarantine. */
interface LostClaim {
  readonly path: Path;
  readonly last: Step;
  readonly acknowledged: boolean;
  readonly dlqSends: number;
}
const DUPLICATE: LostClaim = { path: Path.Duplicate, last: Step.Pass, acknowledged: true, dlqSends: 0 };
const RETRY: LostClaim = { path: Path.Retry, last: Step.Pass, acknowledged: false, dlqSends: 0 };
const QUARANTINE: LostClaim = { path: Path.Quarantine, last: Step.Sqs, acknowledged: true, dlqSends: 1 };

const designLostClaim = ({ path, last, acknowledged, dlqSends }: LostClaim): PathProfile => ({
  path,
  dynamo: [claimFailed(Workflow), inspect(Workflow)],
  downstreamInvocations: 0,
  guardInvocations: 0,
  dlqSends,
  acknowledged,
  steps: [Step.Parallel, Step.Choice, Step.Pass, Step.DynamoCaught, Step.Dynamo, Step.Choice, last],
});

const guardLostClaim = ({ path, last, acknowledged, dlqSends }: LostClaim): PathProfile => ({
  path,
  dynamo: [claimFailed(Guard), inspect(Guard)],
  downstreamInvocations: 0,
  guardInvocations: 1,
  dlqSends,
  acknowledged,
  steps: [Step.LambdaGuard, Step.Choice, last],
});

/** This design: batches of records in one Express execution; the guard is JSONata + optimized DynamoDB tasks. */
export const DESIGN_PATHS: Readonly<Record<Path, PathProfile>> = {
  [Path.NewKey]: {
    path: Path.NewKey,
    dynamo: [claim(Workflow), ...applyInFunction, complete],
    downstreamInvocations: 1,
    guardInvocations: 0,
    dlqSends: 0,
    acknowledged: true,
    steps: [Step.Parallel, Step.Choice, Step.Pass, Step.Dynamo, Step.LambdaDownstream, Step.Dynamo, Step.Pass],
  },
  [Path.Duplicate]: designLostClaim(DUPLICATE),
  [Path.Retry]: designLostClaim(RETRY),
  [Path.Quarantine]: designLostClaim(QUARANTINE),
  [Path.Invalid]: {
    path: Path.Invalid,
    dynamo: [],
    downstreamInvocations: 0,
    guardInvocations: 0,
    dlqSends: 1,
    acknowledged: true,
    steps: [Step.ParallelCaught, Step.Sqs],
  },
};

/**
 * The design this project improves on: one Express execution per message; a guard Lambda does the conditional
 * write (and the read on conflict) and returns a decision; the downstream Lambda runs for new keys; the workflow
 * completes the claim. Same tables, same downstream function: only the orchestration differs.
 */
export const BASELINE_PATHS: Readonly<Record<Path, PathProfile>> = {
  [Path.NewKey]: {
    path: Path.NewKey,
    dynamo: [claim(Guard), ...applyInFunction, complete],
    downstreamInvocations: 1,
    guardInvocations: 1,
    dlqSends: 0,
    acknowledged: true,
    steps: [Step.LambdaGuard, Step.Choice, Step.LambdaDownstream, Step.Dynamo, Step.Pass],
  },
  [Path.Duplicate]: guardLostClaim(DUPLICATE),
  [Path.Retry]: guardLostClaim(RETRY),
  [Path.Quarantine]: guardLostClaim(QUARANTINE),
  // The guard parses the body itself and answers "invalid" without touching DynamoDB.
  [Path.Invalid]: {
    path: Path.Invalid,
    dynamo: [],
    downstreamInvocations: 0,
    guardInvocations: 1,
    dlqSends: 1,
    acknowledged: true,
    steps: [Step.LambdaGuard, Step.Choice, Step.Sqs],
  },
};

/** Items a newly applied key leaves in the tables until TTL removes them (ledger, Powertools record, EFFECT, CALL). */
export const ITEMS_STORED_PER_NEW_KEY: readonly { table: Table; item: ItemKind }[] = [
  { table: Table.Ledger, item: ItemKind.Ledger },
  { table: Table.Idempotency, item: ItemKind.Idempotency },
  { table: Table.Effects, item: ItemKind.Charge },
  { table: Table.Effects, item: ItemKind.Call },
];

/** Counts of DynamoDB calls by "table operation" (e.g. "ledger PutItem": 1), for comparisons with measured counts. */
export function callCounts(profile: PathProfile): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const call of profile.dynamo) {
    const key = `${call.table} ${call.operation}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}
