import type { PolicyDocument } from "../iam/policy-document";

/**
 * IAM's limit for a customer managed policy: 6,144 characters, whitespace not counted (IAM User Guide, "IAM and AWS
 * STS quotas": "Managed policy size … 6,144 characters", "IAM doesn't count white space when calculating the size of
 * a policy against these limits"). A principal holds at most 10 managed policies by default (20 on request).
 */
export const MANAGED_POLICY_LIMIT = 6144;
export const MANAGED_POLICIES_PER_PRINCIPAL = 10;

type Statement = Record<string, unknown>;

/** A policy's size as IAM counts it. */
export function policySize(policy: PolicyDocument): number {
  return JSON.stringify(policy).replace(/\s/g, "").length;
}

const document = (statements: readonly Statement[]): PolicyDocument => ({ Version: "2012-10-17", Statement: statements });

/** A statement too large for one policy, as two on halves of its resources (each keeps the actions and conditions). */
function halve(statement: Statement): Statement[] {
  const resources = statement.Resource as string[];
  if (!Array.isArray(resources) || resources.length < 2) {
    throw new Error(`statement ${String(statement.Sid)} alone exceeds IAM's ${MANAGED_POLICY_LIMIT} characters and has one resource: it cannot be split`);
  }
  const middle = Math.ceil(resources.length / 2);
  return [
    { ...statement, Sid: `${String(statement.Sid)}A`, Resource: resources.slice(0, middle) },
    { ...statement, Sid: `${String(statement.Sid)}B`, Resource: resources.slice(middle) },
  ];
}

/**
 * The statements as few managed policies as fit, in order, each within `limit` characters: a statement is never
 * split across policies unless it alone is too large, and then it becomes two statements on halves of its resources.
 */
export function splitIntoPolicies(statements: readonly Statement[], limit = MANAGED_POLICY_LIMIT): PolicyDocument[] {
  const pending = [...statements];
  const out: Statement[][] = [];
  let current: Statement[] = [];
  while (pending.length > 0) {
    const next = pending.shift()!;
    if (policySize(document([next])) > limit) {
      pending.unshift(...halve(next));
      continue;
    }
    if (policySize(document([...current, next])) > limit) {
      out.push(current);
      current = [];
    }
    current.push(next);
  }
  if (current.length > 0) out.push(current);
  return out.map(document);
}
