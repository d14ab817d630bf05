import { Token } from "cdktf";
import { GUARD_STATEMENT_IDS, guardedActions, QUEUE_ACTIONS_IN_USE, wildcardMatches } from "@effectively-once/contract";
import { cite, longestQueueArn, POLICY_SID, POLICY_SID_SOURCE, SQS_IAM_ACTIONS, SQS_IAM_ACTIONS_SOURCE, SQS_POLICY_QUOTAS, SQS_POLICY_QUOTAS_SOURCE } from "./aws-limits";
import type { PropProblem } from "./errors";
import type { PropRule } from "./prop-rules";
import type { ResolvedPipelineProps } from "./props";
import { PRINCIPAL_PRODUCERS_SID, queuePolicyStatements, type PolicyQueue } from "./queue-access";
import { ProducerKind, type QueuePolicyStatement } from "./queue-access-props";
import { pipelineResourceNames } from "./resource-names";

/** ARN shapes of the producers' resources (partition `aws`, `aws-cn`, `aws-us-gov`, …). */
const ARN_SHAPE = new Map<string, { readonly pattern: RegExp; readonly example: string }>([
  [ProducerKind.SnsTopic, { pattern: /^arn:aws[a-z-]*:sns:[a-z0-9-]+:\d{12}:[A-Za-z0-9_-]{1,256}(\.fifo)?$/, example: "arn:aws:sns:eu-west-1:111122223333:orders" }],
  [ProducerKind.EventBridgeRule, { pattern: /^arn:aws[a-z-]*:events:[a-z0-9-]+:\d{12}:rule\/([A-Za-z0-9._-]{1,256}\/)?[A-Za-z0-9._-]{1,64}$/, example: "arn:aws:events:eu-west-1:111122223333:rule/orders-to-queue" }],
  [ProducerKind.S3Bucket, { pattern: /^arn:aws[a-z-]*:s3:::[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, example: "arn:aws:s3:::orders-uploads" }],
]);
const ACCOUNT = /^\d{12}$/;
const IAM_PRINCIPAL = /^arn:aws[a-z-]*:iam::\d{12}:(root|role\/[\w+=,.@/-]{1,512}|user\/[\w+=,.@/-]{1,512})$/;
const SERVICE_PRINCIPAL = /^[a-z0-9][a-z0-9.-]*\.amazonaws\.com(\.cn)?$/;
/** The Sids the construct writes or may write: the guard's, and the producers' (each prefix followed by a number). */
const CONSTRUCT_SID = new RegExp(`^(${[...GUARD_STATEMENT_IDS, PRINCIPAL_PRODUCERS_SID].join("|")}|(AllowSnsTopics|AllowEventBridgeRules|AllowS3Buckets)\\d+)$`);

const literal = (value: unknown): value is string => typeof value === "string" && !Token.isUnresolved(value);
const listOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : [value]);

function producerProblems(p: ResolvedPipelineProps): PropProblem[] {
  const problems: PropProblem[] = [];
  const seen = new Set<string>();
  p.queueAccess.producers.forEach((producer, i) => {
    const prop = `queueAccess.producers[${i}]`;
    if (producer.kind === ProducerKind.AwsPrincipal) {
      const principal = producer.principal;
      if (literal(principal) && !ACCOUNT.test(principal) && !IAM_PRINCIPAL.test(principal)) {
        problems.push({ prop: `${prop}.principal`, value: principal, reason: "is not an account id (12 digits) nor the ARN of an IAM role or user", fix: 'give "111122223333" or "arn:aws:iam::111122223333:role/orders-producer"' });
      }
      if (seen.has(`${producer.kind} ${principal}`)) problems.push({ prop: `${prop}.principal`, value: principal, reason: "is listed twice", fix: "list each producer once" });
      seen.add(`${producer.kind} ${principal}`);
      return;
    }
    const shape = ARN_SHAPE.get(producer.kind);
    if (!shape) {
      problems.push({ prop: `${prop}.kind`, value: producer.kind, reason: "is not a producer kind", fix: `use one of ${Object.values(ProducerKind).join(", ")}` });
      return;
    }
    if (literal(producer.arn) && !shape.pattern.test(producer.arn)) {
      problems.push({ prop: `${prop}.arn`, value: producer.arn, reason: `is not the ARN of ${producer.kind === ProducerKind.S3Bucket ? "an S3 bucket" : `an ${producer.kind === ProducerKind.SnsTopic ? "SNS topic" : "EventBridge rule"}`}`, fix: `give its whole ARN, e.g. "${shape.example}" (or the resource's .arn)` });
    }
    // A bucket's ARN names no owner, and a wrong aws:SourceAccount refuses every notification: the owner is stated,
    // except for a bucket of this stack (a Terraform reference), whose owner is the stack's account.
    if (producer.kind === ProducerKind.S3Bucket && producer.account === undefined && literal(producer.arn)) {
      problems.push({ prop: `${prop}.account`, value: producer.account, reason: "is missing: a bucket's ARN names no account, and S3 delivers only when aws:SourceAccount is the bucket owner's", fix: 'give the 12-digit id of the account that owns the bucket, e.g. account: "111122223333"' });
    }
    if (producer.account !== undefined && literal(producer.account)) {
      const inArn = literal(producer.arn) && producer.kind !== ProducerKind.S3Bucket ? producer.arn.split(":")[4] : undefined;
      if (!ACCOUNT.test(producer.account)) {
        problems.push({ prop: `${prop}.account`, value: producer.account, reason: "is not an account id (12 digits)", fix: "give the 12-digit id of the account that owns the resource, or leave it out" });
      } else if (inArn !== undefined && inArn !== producer.account) {
        problems.push({ prop: `${prop}.account`, value: producer.account, reason: `differs from the account in its ARN (${inArn}): AWS would never send with both`, fix: "leave it out (the ARN's account is used) or correct it" });
      }
    }
    if (seen.has(`${producer.kind} ${producer.arn}`)) problems.push({ prop: `${prop}.arn`, value: producer.arn, reason: "is listed twice", fix: "list each producer once" });
    seen.add(`${producer.kind} ${producer.arn}`);
  });
  return problems;
}

/** Problems of one principal value (`AWS` or `Service`). */
function principalProblems(prop: string, principal: QueuePolicyStatement["Principal"]): PropProblem[] {
  if (principal === "*") return [];
  const entries = principal !== null && typeof principal === "object" && !Array.isArray(principal) ? Object.entries(principal) : [];
  if (entries.length !== 1 || !["AWS", "Service"].includes(entries[0][0])) {
    return [{ prop, value: principal, reason: 'is not "*", { AWS: … } or { Service: … }', fix: 'name accounts, roles or users as { AWS: ["111122223333"] }, or a service as { Service: ["sns.amazonaws.com"] }' }];
  }
  const [kind, values] = entries[0];
  return listOf(values).flatMap((v): PropProblem[] => {
    if (!literal(v)) return typeof v === "string" ? [] : [{ prop, value: v, reason: "is not a string", fix: "give each principal as a string" }];
    const ok = kind === "AWS" ? v === "*" || ACCOUNT.test(v) || IAM_PRINCIPAL.test(v) : SERVICE_PRINCIPAL.test(v);
    if (ok) return [];
    return [{ prop, value: v, reason: kind === "AWS" ? "is not an account id, an IAM role or user ARN, or *" : "is not a service principal (<service>.amazonaws.com)", fix: kind === "AWS" ? 'e.g. "arn:aws:iam::111122223333:role/ops"' : 'e.g. "sns.amazonaws.com"' }];
  });
}

/** Problems of one team statement on one queue (the Deny this queue carries is `refused`). */
function statementProblems(prop: string, s: QueuePolicyStatement, refused: readonly string[], sids: Set<string>): PropProblem[] {
  const problems: PropProblem[] = [];
  const at = (element: string) => `${prop}.${element}`;
  if (typeof s.Sid !== "string" || !POLICY_SID.test(s.Sid)) {
    problems.push({ prop: at("Sid"), value: s.Sid, reason: "is not a statement id IAM accepts (ASCII letters and digits, required here so a plan review can name the statement)", fix: `give a name such as "OpsReadsDlq" (${cite(POLICY_SID_SOURCE)})` });
  } else if (CONSTRUCT_SID.test(s.Sid)) {
    problems.push({ prop: at("Sid"), value: s.Sid, reason: "is the id of a statement the construct writes itself; yours would shadow it", fix: "use another Sid" });
  } else if (sids.has(s.Sid)) {
    problems.push({ prop: at("Sid"), value: s.Sid, reason: "is used by another statement of this queue's policy; a Sid is unique within a policy", fix: "give each statement its own Sid" });
  }
  if (typeof s.Sid === "string") sids.add(s.Sid);
  if (s.Effect !== "Allow" && s.Effect !== "Deny") problems.push({ prop: at("Effect"), value: s.Effect, reason: "is neither Allow nor Deny", fix: 'use "Allow" or "Deny"' });
  for (const element of ["NotAction", "NotPrincipal", "NotResource", "Resource"]) {
    if (Object.prototype.hasOwnProperty.call(s, element)) problems.push({ prop: at(element), value: (s as unknown as Record<string, unknown>)[element], reason: "is not taken here (Resource is always the queue itself)", fix: `remove ${element}; list the actions and principals it applies to` });
  }
  problems.push(...principalProblems(at("Principal"), s.Principal));
  const actions = Array.isArray(s.Action) ? s.Action : [];
  if (actions.length === 0) problems.push({ prop: at("Action"), value: s.Action, reason: "is empty or not a list", fix: 'list SQS actions, e.g. ["sqs:ReceiveMessage"]' });
  if (actions.length > SQS_POLICY_QUOTAS.actionsPerStatement) {
    problems.push({ prop: at("Action"), value: actions, reason: `names ${actions.length} actions; SQS takes at most ${SQS_POLICY_QUOTAS.actionsPerStatement} per statement`, fix: `split it into statements of at most ${SQS_POLICY_QUOTAS.actionsPerStatement} actions (${cite(SQS_POLICY_QUOTAS_SOURCE)})` });
  }
  for (const action of actions) {
    const name = typeof action === "string" && action.toLowerCase().startsWith("sqs:") ? action.slice(4) : undefined;
    if (name === undefined || !/^[A-Za-z*?]+$/.test(name) || !SQS_IAM_ACTIONS.some((a) => wildcardMatches(name, a))) {
      problems.push({ prop: at("Action"), value: action, reason: "is not an SQS action (a queue policy grants only sqs:<Action>, e.g. sqs:ReceiveMessage; wildcards allowed)", fix: `use one of ${SQS_IAM_ACTIONS.map((a) => `sqs:${a}`).join(", ")} (${cite(SQS_IAM_ACTIONS_SOURCE)})` });
      continue;
    }
    if (s.Effect === "Allow") {
      const weakened = refused.filter((guarded) => wildcardMatches(action, guarded));
      if (weakened.length > 0) {
        problems.push({ prop: at("Action"), value: action, reason: `allows ${weakened.join(" and ")}, which the construct denies on this queue to every principal (the Deny wins, so this grant only looks like one)`, fix: "list the actions the principal needs (e.g. sqs:ReceiveMessage, sqs:GetQueueAttributes), or opt out with allowQueuePurge / allowUnguardedDlqMoves and accept the risk" });
      }
    } else if (s.Effect === "Deny") {
      const needed = QUEUE_ACTIONS_IN_USE.filter((used) => wildcardMatches(action, used));
      if (needed.length > 0) {
        problems.push({ prop: at("Action"), value: action, reason: `denies ${needed.join(", ")}, which producers, the pipe, the quarantine, Terraform or pipeline-ops call (the synth cannot tell whether a Principal or Condition spares them)`, fix: "deny only actions the pipeline does not use, or refuse them outside the queue policy (an SCP or the caller's own IAM policy)" });
      }
    }
  }
  if (s.Effect === "Allow" && (s.Principal === "*" || (typeof s.Principal === "object" && "AWS" in s.Principal && listOf(s.Principal.AWS).includes("*"))) && s.Condition === undefined) {
    problems.push({ prop: at("Principal"), value: s.Principal, reason: "with no Condition opens the queue to every AWS account", fix: "name the accounts or roles, or add a Condition such as aws:SourceArn or aws:PrincipalOrgID" });
  }
  if (s.Condition !== undefined) {
    const blocks = s.Condition !== null && typeof s.Condition === "object" && !Array.isArray(s.Condition) ? Object.values(s.Condition) : [null];
    const valid = blocks.every((b) => b !== null && typeof b === "object" && !Array.isArray(b) && Object.values(b).every((v) => listOf(v).every((x) => typeof x === "string")));
    if (!valid) problems.push({ prop: at("Condition"), value: s.Condition, reason: "is not an IAM condition block (operator → key → string or list of strings)", fix: 'e.g. { StringEquals: { "aws:PrincipalOrgID": "o-a1b2c3d4e5" } }' });
  }
  return problems;
}

function statementListProblems(p: ResolvedPipelineProps): PropProblem[] {
  const refused = guardedActions(p);
  return (
    [
      ["queueAccess.sourceQueueStatements", p.queueAccess.sourceQueueStatements, refused.sourceQueue],
      ["queueAccess.deadLetterQueueStatements", p.queueAccess.deadLetterQueueStatements, refused.deadLetterQueue],
    ] as const
  ).flatMap(([prop, statements, denied]) => {
    const sids = new Set<string>();
    return statements.flatMap((s, i) => statementProblems(`${prop}[${i}]`, s, denied, sids));
  });
}

/** Principals and condition keys of a statement, counted one per value and one per operator-key pair. */
function counts(statement: Record<string, unknown>): { principals: number; conditions: number } {
  const principal = statement.Principal;
  const principals = principal === "*" ? 1 : Object.values(principal as Record<string, unknown>).reduce<number>((n, v) => n + listOf(v).length, 0);
  const condition = (statement.Condition ?? {}) as Record<string, Record<string, unknown>>;
  const conditions = Object.values(condition).reduce((n, block) => n + Object.keys(block).length, 0);
  return { principals, conditions };
}

/** Where the bulk of a queue's policy comes from, for the fix. */
const PROP_OF_QUEUE = new Map<PolicyQueue, string>([
  ["source", "queueAccess (producers, sourceQueueStatements)"],
  ["dead-letter", "queueAccess.deadLetterQueueStatements"],
]);

/**
 * Each queue's policy, as the construct will write it, against SQS's quotas. Bytes are the UTF-8 of the compact JSON
 * with the queue's ARN at its longest (a Terraform reference until apply); a Terraform reference the team passes
 * (e.g. a topic's .arn) counts as its reference text, so the figure is then a floor. Principals and conditions are
 * counted over the whole policy, as the quota table lists them beside statements (per policy), apart from actions.
 */
function quotaProblems(p: ResolvedPipelineProps): PropProblem[] {
  const names = pipelineResourceNames(p);
  const problems: PropProblem[] = [];
  for (const [queue, name] of [["source", names.queue], ["dead-letter", names.deadLetterQueue]] as const) {
    const statements = queuePolicyStatements(queue, p, longestQueueArn(name), "123456789012");
    if (statements.length === 0) continue;
    const text = JSON.stringify({ Version: "2012-10-17", Statement: statements });
    const bytes = Buffer.byteLength(text, "utf8");
    const total = statements.map(counts).reduce((a, c) => ({ principals: a.principals + c.principals, conditions: a.conditions + c.conditions }), { principals: 0, conditions: 0 });
    const own = statements.filter((s) => typeof s.Sid === "string" && CONSTRUCT_SID.test(s.Sid)).length;
    const figures: [string, number, number, string][] = [
      ["statements", statements.length, SQS_POLICY_QUOTAS.statements, `${own} the construct's (Deny and producers) + ${statements.length - own} yours`],
      ["bytes", bytes, SQS_POLICY_QUOTAS.bytes, `the policy's JSON in UTF-8, with the queue's ARN at its longest (${longestQueueArn(name).length} characters)`],
      ["principals", total.principals, SQS_POLICY_QUOTAS.principals, "one per principal value, over every statement"],
      ["conditions", total.conditions, SQS_POLICY_QUOTAS.conditions, "one per operator and key, over every statement (each service producer's statement holds two)"],
    ];
    for (const [what, count, max, how] of figures) {
      if (count <= max) continue;
      problems.push({
        prop: PROP_OF_QUEUE.get(queue) ?? "queueAccess",
        value: `${queue} queue ${name}: ${count} ${what}`,
        reason: `makes the ${queue} queue's policy ${count} ${what} (${how}), over SQS's ${max}: ${count} − ${max} = ${count - max} too many, so the apply would fail`,
        fix: `declare fewer, or merge them (producers of one kind and account share a statement; list several principals in one statement) (${cite(SQS_POLICY_QUOTAS_SOURCE)})`,
      });
    }
  }
  return problems;
}

/** The `queueAccess` prop: its producers and statements, then the policies they make against SQS's quotas. */
export const QUEUE_ACCESS_RULES: readonly PropRule[] = [
  { name: "queueAccess.producers", check: producerProblems },
  { name: "queueAccess.statements", check: statementListProblems },
  { name: "queueAccess.quotas", after: ["queueAccess.producers", "queueAccess.statements", "resourceNames"], check: quotaProblems },
];
