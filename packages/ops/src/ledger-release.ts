import { DeleteCommand } from "@aws-sdk/lib-dynamodb";
import { awsCall } from "./aws-errors";
import { ConflictError, NotFoundError, RefusedError } from "./errors";
import { humanDate } from "./format";
import { getLedgerClaim, type LedgerClaim, type LedgerKeyOptions } from "./ledger-get";
import type { OpsContext } from "./types";
import { OutputName } from "@effectively-once/contract";
import { ClaimStatus } from "@effectively-once/contract";

export interface ReleaseOptions extends LedgerKeyOptions {
  /** Shown the claim that is about to be deleted; resolves true to go ahead. */
  readonly confirm: (claim: LedgerClaim) => Promise<boolean>;
}

export interface ReleaseResult {
  readonly released: boolean;
  readonly claim: LedgerClaim;
}

/**
 * Operator override for a stuck IN_PROGRESS claim: deletes it, conditional on the status, claimId and owner just
 * read, so a claim that completed, was released or was taken over in the meantime is left alone.
 *
 *   read (IN_PROGRESS, claimId c1) ── confirm ── delete if status = IN_PROGRESS and claimId = c1 and owner = m1
 *                                    ↑ a worker completing c1 here makes the delete fail: nothing is released
 *
 * COMPLETED claims are refused: deleting one would let a redelivered or duplicate message apply the effect again.
 */
export async function releaseClaim(ctx: OpsContext, options: ReleaseOptions): Promise<ReleaseResult> {
  const claim = await getLedgerClaim(ctx, options);
  if (!claim) {
    throw new NotFoundError(`no ledger item for key "${options.key}" (operation ${options.operation ?? String(ctx.outputs[OutputName.Operation])}): nothing to release`);
  }
  if (claim.status === ClaimStatus.Completed) {
    const when = claim.completedAt ? ` at ${humanDate(claim.completedAt * 1000)}` : "";
    throw new RefusedError(
      `refusing to release key "${claim.key}": its claim is COMPLETED (applied${when}); releasing a completed claim would let a duplicate apply the effect again`,
    );
  }
  if (claim.status !== ClaimStatus.InProgress) {
    throw new RefusedError(`refusing to release key "${claim.key}": unexpected status "${claim.status}" (only IN_PROGRESS claims can be released)`);
  }
  if (!(await options.confirm(claim))) return { released: false, claim };

  const names: Record<string, string> = { "#status": "status" };
  const values: Record<string, unknown> = { ":inProgress": ClaimStatus.InProgress };
  const conditions = ["#status = :inProgress"];
  for (const [attribute, value] of [
    ["claimId", claim.claimId],
    ["owner", claim.owner],
  ] as const) {
    names[`#${attribute}`] = attribute;
    if (value === undefined) conditions.push(`attribute_not_exists(#${attribute})`);
    else {
      values[`:${attribute}`] = value;
      conditions.push(`#${attribute} = :${attribute}`);
    }
  }
  try {
    await awsCall("releasing the claim", { service: "DynamoDB", endpoint: ctx.endpoints?.dynamodb, resource: `the ledger table ${claim.table}` }, () =>
      ctx.dynamodb.send(
        new DeleteCommand({
          TableName: claim.table,
          Key: { pk: claim.key, sk: claim.operation },
          ConditionExpression: conditions.join(" AND "),
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        }),
      ),
    );
  } catch (error) {
    const cause = (error as { cause?: { name?: string } }).cause;
    if (cause?.name === "ConditionalCheckFailedException") {
      throw new ConflictError(
        `the claim on key "${claim.key}" changed since it was read (completed, released or taken over): nothing was released; look again with \`ledger get ${claim.key}\``,
        { cause: error },
      );
    }
    throw error;
  }
  return { released: true, claim };
}

/** What happens next, said after a release. */
export function renderRelease(result: ReleaseResult): string {
  if (!result.released) return `not released: key ${result.claim.key} keeps its claim`;
  return [
    `released the IN_PROGRESS claim on key ${result.claim.key} (operation ${result.claim.operation}, owner ${result.claim.owner ?? "?"})`,
    "  → the next delivery of a message with this key claims it again; if that message is in the DLQ, replay it with",
    `    \`dlq redrive --key ${result.claim.key}\``,
  ].join("\n");
}
