/**
 * The claim ledger's schema and the three conditional writes the state machine makes on it. The definition
 * (`statemachines/pipeline.asl.json`) spells them in its Arguments; `test/contract/definition-agrees.test.ts`
 * proves the two say the same, and the construct, the local cloud and the tools read names from here.
 */

/** Attribute names of a ledger item (`pk` = business key, `sk` = operation). */
export const LedgerAttribute = {
  Key: "pk",
  Operation: "sk",
  Status: "status",
  /** The SQS message id of the claiming delivery. */
  Owner: "owner",
  /** Unique per claim attempt: Complete and Release are conditional on it, so a late worker cannot touch a newer claim. */
  ClaimId: "claimId",
  PayloadHash: "payloadHash",
  ClaimedAt: "claimedAt",
  LeaseExpiresAt: "leaseExpiresAt",
  CompletedAt: "completedAt",
  /** Epoch seconds; the table's TTL attribute, also checked by the claim condition (TTL deletion is lazy). */
  ExpiresAt: "expiresAt",
} as const;

/** The ledger item's `status`: a claim in progress, or the key applied. */
export const ClaimStatus = {
  /** Claimed by an execution whose work has not completed; the lease says until when. */
  InProgress: "IN_PROGRESS",
  /** Applied: the key stays remembered for the retention. */
  Completed: "COMPLETED",
} as const;
export type ClaimStatus = (typeof ClaimStatus)[keyof typeof ClaimStatus];

/**
 * The conditions (`#status` = status, `:now` epoch seconds). Claim: the key is free, expired, or claimed with a
 * lease run out. Complete: only our own, still in-progress claim. Release: only our own claim.
 */
export const LedgerCondition = {
  Claim: "attribute_not_exists(pk) OR expiresAt < :now OR (#status = :inProgress AND leaseExpiresAt < :now)",
  Complete: "claimId = :claimId AND #status = :inProgress",
  Release: "claimId = :claimId",
} as const;

/** Complete's update: the claim becomes the key's memory for the retention, without a lease. */
export const COMPLETE_UPDATE = "SET #status = :completed, completedAt = :now, expiresAt = :expiresAt REMOVE leaseExpiresAt";
