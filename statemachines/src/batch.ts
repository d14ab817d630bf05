/**
 * One function invocation per batch (standard mode), made from the rendered per-record definition (one template,
 * one set of record states), as fifo.ts makes FIFO mode's:
 *
 * 1. **ClaimBatch** (a Map): each record is parsed, checked and claimed exactly as before; a record decided without
 *    the function (invalid, a duplicate, a conflict, a live claim elsewhere, a quarantine) ends there with its
 *    outcome, and a claimed record ends `claimed`, with what its completion needs (key, claim id, position).
 * 2. **InvokeBatch**: one `lambda:invoke` with the claimed records only (`{ records }`, each record's body as the
 *    text the pipe delivered: the input can then be no larger than the execution's own, see
 *    packages/contract/src/batch-invocation.ts); nothing claimed, no invocation. Lambda's service errors are retried as
 *    for a single record. The answer holds one small outcome per record, never a side effect's result.
 * 3. **ProcessBatch** (a Map, the one whose outcome list the steps after it read, as before): each claimed record
 *    takes its own answer (the one naming its messageId) and is completed or released on its own claim id, with
 *    the disposition a single invocation's Catch would give it (the same error lists). A record without a usable
 *    answer (the invocation crashed, timed out, answered something else, or left the record out) runs the original
 *    per-record `Invoke`: Powertools and the effect journal recognise what the batch already applied.
 */
import { BatchRecordOutcome, jsonataString } from "@effectively-once/contract";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a state machine definition is plain JSON
type Json = any;

/** The per-record states the claim phase no longer needs: the function's part moves to the settle phase. */
const FUNCTION_STATES = ["Invoke", "Complete", "Release", "AfterRelease", "Processed"] as const;

/** The per-record states the settle phase keeps from the original record states. */
const SETTLE_STATES = ["Invoke", "Complete", "Release", "AfterRelease", "Quarantine", "Processed", "RetryLater"] as const;

/** The prefix of the claim phase's own copies of end states the settle phase keeps too (Quarantine, RetryLater). */
const CLAIM_PHASE_PREFIX = "ClaimPhase";

/** Renames a state of one States map and every transition to it there (Next, Default, a Choice's or a Catch's Next). */
function renameState(states: Json, from: string, to: string): void {
  states[to] = states[from];
  delete states[from];
  const retarget = (holder: Json) => {
    if (holder && holder.Next === from) holder.Next = to;
  };
  for (const state of Object.values<Json>(states)) {
    retarget(state);
    if (state.Default === from) state.Default = to;
    for (const rule of [...(state.Choices ?? []), ...(state.Catch ?? [])]) retarget(rule);
  }
}

/** What a claimed record carries from the claim phase to the settle phase. */
const CLAIMED_OUTPUT = {
  messageId: "{% $messageId %}",
  outcome: "claimed",
  position: "{% $position %}",
  key: "{% $key %}",
  claimId: "{% $claimId %}",
  receiveCount: "{% $receiveCount %}",
  firstSentTimestamp: "{% $firstSentTimestamp %}",
  followers: "{% $followers %}",
};

/** The claimed records' batch event: the single event's fields, the body as text (BATCH_RECORD_FIELDS). */
function batchPayload(operation: string): string {
  return (
    "{% [$claims[outcome = 'claimed'].( $c := $; { 'businessKey': $c.key, " +
    `'operation': ${jsonataString(operation)}, 'messageId': $c.messageId, 'receiveCount': $c.receiveCount, ` +
    "'firstSentAt': $number($c.firstSentTimestamp), 'body': $states.context.Execution.Input[$c.position].body } )] %}"
  );
}

/**
 * The answer of this record: the one entry that names its messageId (compared, never used as a key). A messageId is
 * claimed once in a batch (a second copy of a message has its body and follows the first), so an answer that leaves
 * a record out, or names one twice, costs only that record its answer.
 */
const OWN_ANSWER = "{% ( $a := $answers[messageId = $states.input.messageId]; $count($a) = 1 ? $a : null ) %}";

const FAILED = [BatchRecordOutcome.Rejected, BatchRecordOutcome.Conflict, BatchRecordOutcome.Retry];
const SUCCEEDED = [BatchRecordOutcome.Applied, BatchRecordOutcome.Duplicate];
const ANSWER_DETAIL = "{% $answer.error & ': ' & $string($answer.detail) %}";

/** The batch definition (see the file comment), from a copy of the rendered standard one. */
export function batchDefinition(standard: Record<string, unknown>): Record<string, unknown> {
  const definition: Json = structuredClone(standard);
  const top = definition.States;
  const original = top.ProcessBatch;
  const records = original.ItemProcessor.States;
  const invoke = records.Invoke;
  const catches: { ErrorEquals: string[]; Assign: { reason?: string } }[] = invoke.Catch;
  const listOf = (reason: string) => catches.find((c) => c.Assign.reason === reason)?.ErrorEquals ?? [];

  const claim: Json = structuredClone(original);
  claim.Comment = "Each record is parsed, checked and claimed as in per-record mode; a claimed record ends 'claimed' and waits for the batch's one invocation.";
  for (const name of FUNCTION_STATES) delete claim.ItemProcessor.States[name];
  const claimStates = claim.ItemProcessor.States;
  claimStates.Parse.Assign.position = "{% $states.input.batchPosition %}";
  claimStates.Claim.Next = "Claimed";
  claimStates.Decide.Choices[0].Next = "Claimed";
  claimStates.Claimed = { Type: "Pass", Comment: "Claimed: completed or released after the batch's invocation, on this claim id.", Output: CLAIMED_OUTPUT, End: true };
  claim.Assign = { claims: "{% $states.result %}", answers: null };
  claim.Next = "InvokeIfClaimed";

  const settleStates: Json = Object.fromEntries(SETTLE_STATES.map((name) => [name, structuredClone(records[name])]));
  // A state's name is unique in the whole state machine, nested Maps included (the States Language; AWS's
  // ValidateStateMachineDefinition refuses DUPLICATE_STATE_NAMES): the claim phase's copies of the end states the
  // settle phase keeps take a prefix.
  for (const name of SETTLE_STATES) if (name in claimStates) renameState(claimStates, name, `${CLAIM_PHASE_PREFIX}${name}`);
  Object.assign(settleStates, {
    WasClaimed: {
      Type: "Choice",
      Choices: [{ Condition: "{% $states.input.outcome = 'claimed' %}", Next: "Restore" }],
      Default: "Decided",
    },
    Decided: { Type: "Pass", Comment: "Decided in the claim phase: its outcome as it was.", Output: "{% $states.input %}", End: true },
    Restore: {
      Type: "Pass",
      Comment: "The claimed record's variables, as the per-record states read them, and its answer (none: the per-record Invoke).",
      Assign: {
        messageId: "{% $states.input.messageId %}",
        key: "{% $states.input.key %}",
        claimId: "{% $states.input.claimId %}",
        receiveCount: "{% $states.input.receiveCount %}",
        firstSentTimestamp: "{% $states.input.firstSentTimestamp %}",
        followers: "{% $states.input.followers %}",
        body: "{% $states.context.Execution.Input[$states.input.position].body %}",
        answer: OWN_ANSWER,
      },
      Next: "Answered",
    },
    Answered: {
      Type: "Choice",
      Comment: "A failed record ends as a single invocation's Catch would end it (the same error lists); no usable answer: this record alone is invoked again.",
      Choices: [
        { Condition: `{% $answer != null and $answer.outcome in ${JSON.stringify(SUCCEEDED)} %}`, Next: "Complete" },
        ...[
          ["payload-mismatch", listOf("payload-mismatch")],
          ["rejected", listOf("rejected")],
        ]
          .filter(([, names]) => names.length > 0)
          .map(([reason, names]) => ({
            Condition: `{% $answer != null and $answer.outcome in ${JSON.stringify(FAILED)} and $answer.error in ${JSON.stringify(names)} %}`,
            Next: "Release",
            Assign: { disposition: "quarantine", reason, detail: ANSWER_DETAIL },
          })),
        {
          Condition: `{% $answer != null and $answer.outcome in ${JSON.stringify(FAILED)} %}`,
          Next: "Release",
          Assign: { disposition: "retry", detail: "{% 'downstream failed: ' & $answer.error %}" },
        },
      ],
      Default: "Invoke",
    },
  });

  const operation = String(invoke.Arguments.Payload.operation);
  Object.assign(top, {
    ClaimBatch: claim,
    InvokeIfClaimed: {
      Type: "Choice",
      Choices: [{ Condition: "{% $count($claims[outcome = 'claimed']) > 0 %}", Next: "InvokeBatch" }],
      Default: "ProcessBatch",
    },
    InvokeBatch: {
      Type: "Task",
      Comment: "One invocation for the claimed records. Any failure of the whole invocation leaves every record without an answer: each is then invoked alone.",
      Resource: invoke.Resource,
      Arguments: { FunctionName: invoke.Arguments.FunctionName, Payload: { records: batchPayload(operation) } },
      TimeoutSeconds: invoke.TimeoutSeconds,
      Retry: structuredClone(invoke.Retry),
      Catch: [{ ErrorEquals: ["States.ALL"], Next: "ProcessBatch", Assign: { answers: null } }],
      Assign: { answers: "{% $type($states.result.Payload.outcomes) = 'array' ? $states.result.Payload.outcomes : null %}" },
      Output: {},
      Next: "ProcessBatch",
    },
    ProcessBatch: {
      Type: "Map",
      Comment: "Each record ends in one outcome: claimed records by their answer (or alone, without one), the others as the claim phase decided. The outcomes are kept (small objects) for the steps after the Map.",
      Items: "{% $claims %}",
      MaxConcurrency: original.MaxConcurrency,
      ItemProcessor: { ProcessorConfig: { Mode: "INLINE" }, StartAt: "WasClaimed", States: settleStates },
      Assign: original.Assign,
      Next: original.Next,
    },
  });
  top.GroupDuplicates.Next = "ClaimBatch";
  // The states in the order an execution meets them, for readers of the rendered JSON.
  definition.States = Object.fromEntries(["GroupDuplicates", "ClaimBatch", "InvokeIfClaimed", "InvokeBatch", "ProcessBatch", ...Object.keys(top).filter((n) => !["GroupDuplicates", "ClaimBatch", "InvokeIfClaimed", "InvokeBatch", "ProcessBatch"].includes(n))].map((n) => [n, top[n]]));
  return definition;
}
