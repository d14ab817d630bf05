/**
 * The fates the workflow decides without the function, counted on AWS: after both Maps, one `putLogEvents` of
 * CloudWatch embedded-metric-format (EMF) documents per batch that has such a fate. CloudWatch Logs extracts EMF from
 * PutLogEvents ("Using the PutLogEvents API to send manually-created embedded metric format logs"); the call has no
 * request price, only ingestion (docs/operations.md, "Fate metrics").
 *
 * 1. **What is counted, per record** (from the outcome list the Maps already produce, never from the function's
 *    invocation, whatever its shape): `RecognisedDuplicate` (a `duplicate` outcome, and every follower of a processed
 *    or duplicate leader), `Retried` (a `retry` outcome, its followers, a follower whose quarantine failed, and in FIFO
 *    mode the records held behind it), `Quarantined` per `reason` (the leaders' and the followers' quarantines). A
 *    `processed` record is the function's to count (`Applied`, or its second layer's `Duplicate`).
 * 2. **One document per dimension set**: EMF has one value per dimension per document, so one event carries the
 *    counts by `service` and one event per reason carries `Quarantined` by `service` and `reason`. A batch of new keys
 *    only makes no call (`CountFates` skips it).
 * 3. **Never at the batch's expense**: the call has no Retry, a short timeout (`FATE_METRICS_TIMEOUT_SECONDS`, counted
 *    in the construct's execution budget), and a Catch that hands on the batch's answer: a lost metric never fails or
 *    retries a record.
 *
 * The state after QuarantineFollowers only: the record states inside the Maps are untouched.
 */
import { FATE_METRICS_NAMESPACE, FATE_REASON_DIMENSION, FATE_SERVICE_DIMENSION, FateMetric, RecordOutcome } from "@effectively-once/contract";

/** Where the workflow writes its fate metrics: a log group and stream the construct provisions, and the `service` dimension's value. */
export interface FateMetricsTarget {
  readonly logGroupName: string;
  readonly logStreamName: string;
  /** The `service` dimension: the function's `POWERTOOLS_SERVICE_NAME` (the pipeline's `namePrefix`), so both sources share it. */
  readonly service: string;
}

/**
 * The longest the metric call may take (PutLogEvents answers in milliseconds; past this the metric is lost, not the
 * batch); the construct adds it to the execution's worst case (timing.ts).
 */
export const FATE_METRICS_TIMEOUT_SECONDS = 2;

/** JSONata string literal of a fixed word (the contract's names contain no quote; checked so a rename cannot break the expression). */
function literal(word: string): string {
  if (!/^[A-Za-z0-9_.\-/ ]*$/.test(word)) throw new Error(`fate-count.ts: ${JSON.stringify(word)} cannot be written as a JSONata literal here`);
  return `'${word}'`;
}

const Q = RecordOutcome;

/**
 * The log events of one batch, from `$outcomes` (the first Map's, one per record; a follower's own entry says
 * `follower`) and `$followerFates` (QuarantineFollowers' results): an empty list when the workflow decided nothing itself.
 * Reasons are the contract's DlqReason words the definition writes; a document per reason keeps them apart.
 */
function fateEvents(service: string): string {
  const ns = literal(FATE_METRICS_NAMESPACE);
  const svc = literal(FATE_SERVICE_DIMENSION);
  const rsn = literal(FATE_REASON_DIMENSION);
  const directive = (dimensions: string, metrics: string) => `{ 'Namespace': ${ns}, 'Dimensions': [[${dimensions}]], 'Metrics': [${metrics}] }`;
  const metric = (name: string) => `{ 'Name': ${literal(name)}, 'Unit': 'Count' }`;
  return (
    "{% ( " +
    `$leaders := $outcomes[outcome != 'follower']; ` +
    `$dupes := $count($leaders[outcome = ${literal(Q.Duplicate)}]) + $count($leaders[outcome in [${literal(Q.Processed)}, ${literal(Q.Duplicate)}]].followers); ` +
    `$retries := $count($leaders[outcome = ${literal(Q.Retry)}]) + $count($leaders[outcome = ${literal(Q.Retry)}].followers) + $count($followerFates[outcome = ${literal(Q.Retry)}]); ` +
    `$quarantined := $append($leaders[outcome = ${literal(Q.Quarantined)}], $followerFates[outcome = ${literal(Q.Quarantined)}]); ` +
    `$t := $millis(); ` +
    // A metric with no record this batch is left out (no zero datapoint), and so is the document when both are.
    `$counts := $dupes + $retries > 0 ? [{ 'Timestamp': $t, 'Message': $string($merge([{ '_aws': { 'Timestamp': $t, 'CloudWatchMetrics': [${directive(svc, `$dupes > 0 ? ${metric(FateMetric.RecognisedDuplicate)}, $retries > 0 ? ${metric(FateMetric.Retried)}`)}] }, ${svc}: ${literal(service)} }, ` +
    `$dupes > 0 ? { ${literal(FateMetric.RecognisedDuplicate)}: $dupes }, $retries > 0 ? { ${literal(FateMetric.Retried)}: $retries }])) }] : []; ` +
    `$byReason := [$map($distinct($quarantined.reason), function($r) { { 'Timestamp': $t, 'Message': $string({ '_aws': { 'Timestamp': $t, 'CloudWatchMetrics': [${directive(`${svc}, ${rsn}`, metric(FateMetric.Quarantined))}] }, ${svc}: ${literal(service)}, ${rsn}: $r, ${literal(FateMetric.Quarantined)}: $count($quarantined[reason = $r]) }) } })]; ` +
    "$append($counts, $byReason) ) %}"
  );
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a state machine definition is plain JSON
type Json = any;

/**
 * Whether the workflow decided any record's fate itself: a duplicate, quarantine or retry, or followers of a processed
 * leader. Plain field tests only: a Choice cannot catch an error, so the counting itself lives in the caught Task.
 */
const ANY_FATE =
  `{% $exists($outcomes[outcome in [${literal(Q.Duplicate)}, ${literal(Q.Quarantined)}, ${literal(Q.Retry)}]]) or $exists($outcomes[outcome = ${literal(Q.Processed)}].followers) ` +
  `or $exists($followerFates[outcome in [${literal(Q.Quarantined)}, ${literal(Q.Retry)}]]) %}`;

/**
 * Adds the counting states after QuarantineFollowers (see the file comment): QuarantineFollowers keeps its answer as
 * `$batchAnswer` (the expression it had as Output) and its results as `$followerFates`, and goes on to `CountFates`;
 * every path ends in `Answer`, which outputs the answer unchanged.
 */
export function withFateCount(rendered: Record<string, unknown>, partition: string, target: FateMetricsTarget): Record<string, unknown> {
  const definition: Json = rendered;
  const top = definition.States;
  const followers = top.QuarantineFollowers;
  if (!followers?.End || typeof followers.Output !== "string") throw new Error("fate-count.ts: QuarantineFollowers must end the definition with its batch answer as Output");
  delete followers.End;
  followers.Assign = { ...(followers.Assign ?? {}), batchAnswer: followers.Output, followerFates: "{% $states.result %}" };
  delete followers.Output;
  followers.Next = "CountFates";
  Object.assign(top, {
    CountFates: {
      Type: "Choice",
      Comment: "A batch whose records were all processed by the function has nothing for the workflow to count: no call.",
      Choices: [{ Condition: ANY_FATE, Next: "PutFateMetrics" }],
      Default: "Answer",
    },
    PutFateMetrics: {
      Type: "Task",
      Comment:
        "The workflow's fates (recognised duplicates, quarantines by reason, retries) as EMF documents, which CloudWatch Logs turns into metrics. Counted here, in the Task's Arguments, so that any error is caught: no Retry and a Catch, a metric never fails or retries a batch.",
      Resource: `arn:${partition}:states:::aws-sdk:cloudwatchlogs:putLogEvents`,
      Arguments: { LogGroupName: target.logGroupName, LogStreamName: target.logStreamName, LogEvents: fateEvents(target.service) },
      TimeoutSeconds: FATE_METRICS_TIMEOUT_SECONDS,
      Catch: [{ ErrorEquals: ["States.ALL"], Next: "Answer" }],
      Next: "Answer",
    },
    Answer: {
      Type: "Pass",
      Comment: "The batch's answer to the pipe: the records to retry.",
      Output: "{% $batchAnswer %}",
      End: true,
    },
  });
  return definition;
}
