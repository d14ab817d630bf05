/**
 * FIFO mode's state machine, made from the rendered standard definition (one template, one set of record states):
 *
 * 1. **Groups.** `GroupDuplicates` assigns `groups`: the batch positions of each `MessageGroupId`, in batch order,
 *    compared by position (a group id is producer text, never an object key: `__proto__` is a legal group id). Every
 *    record leads itself (no followers: a group's identical bodies run one after another, the second finds the first
 *    completed and is a duplicate).
 * 2. **One group per Map iteration, its records one after another.** `ProcessBatch` maps over the groups (other groups
 *    in parallel, `MaxConcurrency` at once); an iteration loops `NextRecord` → the record states → `Settle` → `GroupNext`
 *    over its group's positions in batch order. A record that ends `retry` stops its group: it and every later record of
 *    the group come back in `batchItemFailures` (`HoldRest`), so no later record is applied before it. A quarantined
 *    record is settled (it does not hold its group); a duplicate is acknowledged.
 * 3. **The last receive.** A record to retry on its last receive (`ApproximateReceiveCount` ≥ `maxReceiveCount`: SQS
 *    would move it to the DLQ at the next receive, and with it every record held behind it that never failed) is
 *    quarantined instead, reason `retries-exhausted`, with the failure in `detail`: set aside in the DLQ, so the rest
 *    of its group runs on this receive. Held records are received with the record they wait for, so their count is
 *    never higher than its: none reaches the DLQ untried unless the quarantine itself fails (the record is then
 *    retried, as in standard mode).
 * 4. **Quarantine sends** carry the record's `MessageGroupId` (the DLQ keeps each group's order) and a
 *    `MessageDeduplicationId` of their own, the SHA-256 of the execution's id and the record's message id: unique per
 *    copy (no producer can know an execution's id, so none can make SQS drop a quarantine), the same for the Task's
 *    retried send of that copy (accepted, not delivered twice). A later execution quarantining the same record again
 *    sends a second copy, a harmless duplicate, as in standard mode.
 */
import { DlqReason, FIFO_HELD_DETAIL } from "@effectively-once/contract";

/** The states a record's processing ends in: in FIFO mode each goes on to `Settle` instead of ending the iteration. */
const RECORD_ENDS = ["Follower", "Quarantine", "Processed", "Duplicate", "RetryLater"] as const;

/** The states that hand a record back to the pipe (RetryLater's sources), except a quarantine that failed. */
const RETRY_SOURCES = ["Claim", "Inspect", "Decide", "AfterRelease"] as const;

/**
 * Each group's batch positions, in batch order, as `{ positions: [...] }` objects (an object keeps a one-position
 * group an array). A group is found by comparing ids position by position: at most 10 × 10 comparisons.
 */
const GROUP_POSITIONS =
  "{% ( $n := $count($states.input); $g := [$map($states.input, function($r) { $exists($r.attributes.MessageGroupId) ? $string($r.attributes.MessageGroupId) : '' })];" +
  " [$map($filter([0..$n - 1], function($i) { $i = 0 or $count($filter([0..$i - 1], function($j) { $g[$j] = $g[$i] })) = 0 })," +
  " function($first) { { 'positions': [$filter([0..$n - 1], function($k) { $g[$k] = $g[$first] })] } })] ) %}";

/** The record at the loop's cursor, as the standard record states read it (`batchPosition` as the Map's ItemSelector adds it). */
const RECORD_AT_CURSOR = "{% ( $p := $positions[$cursor]; $merge([$states.context.Execution.Input[$p], { 'batchPosition': $p }]) ) %}";

/** The records of the group after the cursor, each handed back unprocessed. */
const HELD_REST =
  "{% $append($settled, [$map($filter($positions, function($v, $i) { $i >= $cursor }), function($p) " +
  `{ { 'messageId': $states.context.Execution.Input[$p].messageId, 'outcome': 'retry', 'detail': '${FIFO_HELD_DETAIL}' } })]) %}`;

/** The group id of the record being processed; a follower's is looked up by message id. */
const RECORD_GROUP = "{% $states.context.Execution.Input[messageId = $messageId][0].attributes.MessageGroupId %}";
const QUARANTINE_DEDUPLICATION_ID = "{% $hash($states.context.Execution.Id & '/' & $messageId, 'SHA-256') %}";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a state machine definition is plain JSON
type Json = any;

/** FIFO mode's definition (see the file comment), from a copy of the rendered standard one. */
export function fifoDefinition(standard: Record<string, unknown>, maxReceiveCount: number): Record<string, unknown> {
  if (!Number.isInteger(maxReceiveCount) || maxReceiveCount < 1) throw new Error(`fifoDefinition: maxReceiveCount must be a whole number ≥ 1, got ${maxReceiveCount}`);
  const definition: Json = structuredClone(standard);
  const top = definition.States;
  top.GroupDuplicates.Comment =
    "FIFO: the batch positions of each MessageGroupId, in batch order, compared position by position (a group id is producer text: never an object key). Every record leads itself: a group's records run one after another, so a later identical body finds the earlier one completed.";
  top.GroupDuplicates.Assign = { leaderAt: "{% [0..$count($states.input) - 1] %}", groups: GROUP_POSITIONS };

  const map = top.ProcessBatch;
  map.Items = "{% $groups %}";
  delete map.ItemSelector;
  map.Comment = "FIFO: one iteration per message group (MaxConcurrency groups at once); each runs its group's records one after another in batch order and returns their outcomes.";
  map.Assign = { outcomes: "{% $reduce($states.result, function($all, $group) { $append($all, $group) }, []) %}" };
  const states = map.ItemProcessor.States;
  map.ItemProcessor.StartAt = "StartGroup";
  for (const name of RECORD_ENDS) {
    delete states[name].End;
    states[name].Next = "Settle";
  }
  for (const name of RETRY_SOURCES) redirect(states[name], "RetryLater", "LastReceive");
  states.Quarantine.Arguments.MessageGroupId = "{% $group %}";
  states.Quarantine.Arguments.MessageDeduplicationId = QUARANTINE_DEDUPLICATION_ID;
  const follower = top.QuarantineFollowers.ItemProcessor.States.QuarantineFollower;
  follower.Arguments.MessageGroupId = RECORD_GROUP;
  follower.Arguments.MessageDeduplicationId = QUARANTINE_DEDUPLICATION_ID;

  Object.assign(states, {
    StartGroup: {
      Type: "Pass",
      Comment: "The group's batch positions, and the loop's cursor and outcomes so far.",
      Assign: { positions: "{% $states.input.positions %}", cursor: 0, settled: [] },
      Next: "NextRecord",
    },
    NextRecord: {
      Type: "Pass",
      Comment: "The next record of the group, as the record states read it. What a record's states assign is set before it is read, so nothing of the record before leaks in; the reason and detail are cleared anyway.",
      Output: RECORD_AT_CURSOR,
      Assign: { group: "{% $states.context.Execution.Input[$positions[$cursor]].attributes.MessageGroupId %}", reason: null, detail: null, disposition: null, holder: null },
      Next: "Route",
    },
    LastReceive: {
      Type: "Choice",
      Comment: `A record to retry on its last receive (ApproximateReceiveCount >= maxReceiveCount ${maxReceiveCount}) is quarantined as retries-exhausted: SQS would move it at the next receive, and every record of its group held behind it, untried.`,
      Choices: [
        {
          Condition: `{% $receiveCount >= ${maxReceiveCount} %}`,
          Next: "Quarantine",
          Assign: { reason: DlqReason.RetriesExhausted, detail: `{% 'failed on its last receive (' & $receiveCount & ' of ${maxReceiveCount}): ' & $detail %}` },
        },
      ],
      Default: "RetryLater",
    },
    Settle: {
      Type: "Pass",
      Comment: "The record's outcome joins its group's; the cursor moves on. Only the outcome word goes on: the record's own state reported its fate.",
      Assign: { settled: "{% $append($settled, [$states.input]) %}", cursor: "{% $cursor + 1 %}" },
      Output: "{% $states.input.outcome %}",
      Next: "GroupNext",
    },
    GroupNext: {
      Type: "Choice",
      Choices: [
        { Comment: "A record to retry holds its group: no later record of it may be applied first.", Condition: "{% $states.input = 'retry' %}", Next: "HoldRest" },
        { Condition: "{% $cursor < $count($positions) %}", Next: "NextRecord" },
      ],
      Default: "GroupDone",
    },
    HoldRest: {
      Type: "Pass",
      Comment: "Every later record of the group comes back unprocessed with the one to retry, in the same order.",
      Output: HELD_REST,
      End: true,
    },
    GroupDone: { Type: "Pass", Output: "{% $settled %}", End: true },
  });
  return definition;
}

/** Points every transition of a state (Next, Default, Choice rules, Catch) that goes to `from` at `to`. */
function redirect(state: Json, from: string, to: string): void {
  if (state.Next === from) state.Next = to;
  if (state.Default === from) state.Default = to;
  for (const rule of [...(state.Choices ?? []), ...(state.Catch ?? [])]) if (rule.Next === from) rule.Next = to;
}
