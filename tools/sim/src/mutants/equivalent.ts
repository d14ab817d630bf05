/**
 * Mutants that cannot change what the pipeline does, each with the one-line argument. A mutant listed here that
 * the proof kills is reported as killed (the list is a claim, the run decides). The misclassification mutants
 * (mutants/misclassification.ts) have no place here: each changes a fate the contract fixes.
 */
const NULL_HOLDER = "JSONata navigation of a null $holder yields no value, so every comparison on it is already false without the null check";

const CLAIM_AGAIN =
  "rule 3 only decides whether a key whose holder vanished between the refused claim and the read is claimed again now or after the visibility timeout: same fate, other latency";

const THROTTLING_BY_NAME =
  "Step Functions' optimized DynamoDB integration reports DynamoDB's ThrottlingException as DynamoDB.AmazonDynamoDBException today (the SDK for Java v1 has no class for it; the local interpreter names it so too, and the Retry lists that name), so the name is never raised: it is listed only for the day the integration learns it";

/**
 * One invocation per batch: a batch invocation that is left out or fails (any error, any shape) leaves each claimed
 * record without an answer, and each is then invoked alone, exactly as in per-record mode: these change how many
 * Lambda requests a batch takes, never a fate. statemachines/test/batch-invocation.test.ts counts the requests (one
 * batch, no single invocation on the happy path; none when nothing is claimed), which kills the first three.
 */
const BATCH_FALLBACK =
  "without the batch's invocation (or with it failing where the Retry would have absorbed a Lambda service error) every claimed record is invoked alone: the per-record path, same fates, more requests";

const NULL_ANSWER = "JSONata navigation of a null $answer yields no value, so `$answer.outcome in [...]` is already false without the null check";

const ANSWER_SHAPE =
  "rule 0 takes every answer that says applied or duplicate first, and the function writes `error` only on an answer that says rejected, conflict or retry (functions/src/batch.ts): no answer that reaches this rule has an error name with another outcome word";

/** Mutant id → why it cannot change behaviour (pairs: the ids are the definition's own text). */
export const EQUIVALENT_MUTANTS: ReadonlyMap<string, string> = new Map([
  ...[
    "BATCH InvokeIfClaimed:choice-0:negate",
    "BATCH InvokeIfClaimed:choice-0:remove",
    "BATCH InvokeBatch:skip",
    "BATCH InvokeBatch:retry-0:remove",
    ...["ClientExecutionTimeoutException", "ServiceException", "AWSLambdaException", "SdkClientException", "TooManyRequestsException"].map((name) => `BATCH InvokeBatch:retry-0:without:Lambda.${name}`),
    "BATCH ProcessBatch/Answered:choice-3:remove",
  ].map((id): [string, string] => [id, BATCH_FALLBACK]),
  ...[0, 1, 2, 3].map((rule): [string, string] => [`BATCH ProcessBatch/Answered:choice-${rule}:drop:$answer != null`, NULL_ANSWER]),
  ...[1, 2, 3].map((rule): [string, string] => [`BATCH ProcessBatch/Answered:choice-${rule}:drop:$answer.outcome in ["rejected","conflict","retry"]`, ANSWER_SHAPE]),
  ...["Claim", "Inspect", "Complete", "Release"].map((state): [string, string] => [`ProcessBatch/${state}:retry-0:without:DynamoDB.ThrottlingException`, THROTTLING_BY_NAME]),
  ["ProcessBatch/Decide:choice-3:negate", CLAIM_AGAIN],
  ["ProcessBatch/Decide:choice-3:remove", CLAIM_AGAIN],
  ["ProcessBatch/Decide:choice-3:drop:$claimAttempts < 3", `${CLAIM_AGAIN} (the bound only stops a holder vanishing again and again)`],
  ["ProcessBatch/Decide:choice-3:drop:($holder = null or $number($holder.expiresAt.N) < $now or ($holder.status.S = 'IN_PROGRESS' and $number($holder.leaseExpiresAt.N) < $now))", CLAIM_AGAIN],
  ["ProcessBatch/Decide:choice-3:drop:($holder.status.S = 'IN_PROGRESS' and $number($holder.leaseExpiresAt.N) < $now)", CLAIM_AGAIN],
  ["ProcessBatch/Decide:choice-3:drop:$holder = null", CLAIM_AGAIN],
  ["ProcessBatch/Decide:choice-3:drop:$number($holder.expiresAt.N) < $now", CLAIM_AGAIN],
  ["ProcessBatch/Decide:choice-3:drop:$holder.status.S = 'IN_PROGRESS'", CLAIM_AGAIN],
  ["ProcessBatch/Decide:choice-3:drop:$number($holder.leaseExpiresAt.N) < $now", CLAIM_AGAIN],
  ["ProcessBatch/Complete:condition-drop:#status = :inProgress", "a claim id is fresh per claim attempt (Stamp) and only its own worker completes it, so `claimId = :claimId` already singles out an IN_PROGRESS item; without the status test, only that worker's own retried Complete could land twice, moving completedAt and expiresAt seconds later"],
  ["ProcessBatch/Claim:condition-drop:#status = :inProgress", "Complete REMOVEs leaseExpiresAt, so `leaseExpiresAt < :now` can only hold for an IN_PROGRESS item: the status test adds nothing"],
  ["ProcessBatch/Decide:choice-0:drop:$holder != null", NULL_HOLDER],
  ["ProcessBatch/Decide:choice-1:drop:$holder != null", NULL_HOLDER],
  ["ProcessBatch/Decide:choice-2:drop:$holder != null", NULL_HOLDER],
  ["ProcessBatch/Decide:choice-1:drop:$number($holder.expiresAt.N) >= $now", "Inspect follows a claim refused at the same $now, so a holder it reads has expiresAt >= $now (any rewrite in between sets a later now + retention)"],
  ["ProcessBatch/Decide:choice-2:drop:$number($holder.expiresAt.N) >= $now", "Inspect follows a claim refused at the same $now, so a holder it reads has expiresAt >= $now (any rewrite in between sets a later now + retention)"],
]);
