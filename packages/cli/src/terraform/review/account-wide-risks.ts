import { PlanAction } from "../plan-json";
import { RiskKind, Severity, type RiskFlag } from "./types";

/** The part of a resource's transition (risks.ts) this rule reads. */
interface Replaced {
  readonly address: string;
  readonly type: string;
  readonly action: PlanAction;
  readonly basis: RiskFlag["basis"];
  readonly before: { readonly name: string | null } | null;
  readonly after: { readonly name: string | null } | null;
}

/**
 * A renamed IAM role or dashboard: the names that are unique per account now carry the region (docs/upgrading.md,
 * "Account-wide names carry the region"), so the first deploy after that upgrade replaces the three roles and the
 * dashboard. Nothing is lost, but the reviewer should know the order and what changes with the roles.
 */
export function accountWideRenameRisk(t: Replaced): RiskFlag | undefined {
  if (t.action !== PlanAction.Replace || (t.type !== "aws_iam_role" && t.type !== "aws_cloudwatch_dashboard")) return undefined;
  const before = t.before?.name ?? t.address;
  const after = t.after?.name ?? "a new name";
  const base = { kind: RiskKind.AccountWideRename, severity: Severity.Medium, address: t.address, basis: t.basis };
  if (t.type === "aws_iam_role") {
    return {
      ...base,
      message:
        `Role ${before} is replaced by ${after}: the construct creates the new role and its policy first (create_before_destroy), switches the function, state machine or pipe to it in place, and deletes the old role last, so nothing runs without its rights. ` +
        "The workflow role's unique id changes with it: DLQ messages quarantined before the deploy no longer prove to be the quarantine's own (`pipeline-ops dlq` reads workflow_role_id); redrive or inspect them before deploying (docs/upgrading.md).",
    };
  }
  return {
    ...base,
    message: `Dashboard ${before} is replaced by ${after}: dashboards are account-wide, so if a stack in another region used the same prefix, it shared ${before}, and deleting it here deletes theirs too (their next deploy creates their own, with their region in its name).`,
  };
}
