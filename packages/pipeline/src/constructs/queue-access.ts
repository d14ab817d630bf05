import { Token } from "cdktf";
import { guardedActions, guardStatements } from "@effectively-once/contract";
import { ProducerKind, type QueuePolicyStatement, type ResolvedQueueAccess } from "./queue-access-props";

/**
 * The statements of the queues' one `Policy` each: the construct's Deny statements (packages/contract/src/queue-guard.ts)
 * first, then the declared producers (source queue), then the team's own statements. The synth rules
 * (queue-access-rules.ts) check the same list this file renders, so what is checked is what is deployed.
 */

/** Which of the two queues a policy belongs to. */
export type PolicyQueue = "source" | "dead-letter";

/** The service principal of each service producer, and the condition operator its AWS guide shows for `aws:SourceArn`. */
const SERVICE_OF = new Map<string, { readonly principal: string; readonly arnOperator: "ArnEquals" | "ArnLike"; readonly sid: string }>([
  // SNS: "Subscribing an Amazon SQS queue to an Amazon SNS topic" (docs.aws.amazon.com/sns/latest/dg/subscribe-sqs-queue-to-sns-topic.html).
  [ProducerKind.SnsTopic, { principal: "sns.amazonaws.com", arnOperator: "ArnEquals", sid: "AllowSnsTopics" }],
  // EventBridge: "Amazon SQS permissions" (docs.aws.amazon.com/eventbridge/latest/userguide/eb-use-resource-based.html).
  [ProducerKind.EventBridgeRule, { principal: "events.amazonaws.com", arnOperator: "ArnEquals", sid: "AllowEventBridgeRules" }],
  // S3: "Granting permissions to publish event notification messages to a destination" (docs.aws.amazon.com/AmazonS3/latest/userguide/grant-destinations-permissions-to-s3.html).
  [ProducerKind.S3Bucket, { principal: "s3.amazonaws.com", arnOperator: "ArnLike", sid: "AllowS3Buckets" }],
]);

/** Sid of the statement allowing the declared accounts, roles and users. */
export const PRINCIPAL_PRODUCERS_SID = "AllowProducerPrincipals";

/**
 * One declared producer as the queue policy grants it: who may call `sqs:SendMessage` on the source queue, and under
 * which source conditions. Read by other parts of the construct that must let the same producers in (e.g. a key
 * policy), through `IdempotentPipeline.queues.producers`.
 */
export interface DeclaredProducer {
  /** What the producer is (a topic, a rule, a bucket, a principal). */
  readonly kind: ProducerKind;
  /** `{ Service: "sns.amazonaws.com" }` for a service producer, `{ AWS: "<account id or ARN>" }` for a principal. */
  readonly principal:
    | {
        /** The service principal. */
        readonly Service: string;
      }
    | {
        /** The account id or the role's or user's ARN. */
        readonly AWS: string;
      };
  /** The resource the service sends for (`aws:SourceArn`); absent for a principal. */
  readonly sourceArn?: string;
  /** The account owning that resource (`aws:SourceAccount`); absent for a principal. */
  readonly sourceAccount?: string;
}

/** The account field of a literal ARN (empty for S3), undefined for a Terraform reference. */
function accountInArn(arn: string): string | undefined {
  if (Token.isUnresolved(arn)) return undefined;
  const account = arn.split(":")[4];
  return account ? account : undefined;
}

/** Every declared producer, resolved: each service producer's account falls back to the ARN's, then the stack's. */
export function declaredProducers(access: ResolvedQueueAccess, stackAccount: string): DeclaredProducer[] {
  return access.producers.map((producer): DeclaredProducer => {
    if (producer.kind === ProducerKind.AwsPrincipal) return { kind: producer.kind, principal: { AWS: producer.principal } };
    const service = SERVICE_OF.get(producer.kind);
    return {
      kind: producer.kind,
      principal: { Service: service?.principal ?? String(producer.kind) },
      sourceArn: producer.arn,
      sourceAccount: producer.account ?? accountInArn(producer.arn) ?? stackAccount,
    };
  });
}

/** One value or a list: IAM's own shorthand, so a single producer reads as AWS's examples do. */
const oneOrMany = (values: readonly string[]): string | string[] => (values.length === 1 ? values[0] : [...values]);

/**
 * The producers' Allow statements: one per service and owning account (the `aws:SourceArn` list names every resource
 * of that account; a separate statement per account keeps each ARN paired with its owner), and one for every
 * account, role and user.
 */
function producerStatements(producers: readonly DeclaredProducer[], queueArn: string): Record<string, unknown>[] {
  const statements: Record<string, unknown>[] = [];
  for (const [kind, service] of SERVICE_OF) {
    const groups = new Map<string, string[]>();
    for (const p of producers) {
      if (p.kind !== kind || p.sourceArn === undefined || p.sourceAccount === undefined) continue;
      groups.set(p.sourceAccount, [...(groups.get(p.sourceAccount) ?? []), p.sourceArn]);
    }
    let n = 0;
    for (const [account, arns] of groups) {
      n += 1;
      statements.push({
        Sid: `${service.sid}${n}`,
        Effect: "Allow",
        Principal: { Service: service.principal },
        Action: "sqs:SendMessage",
        Resource: queueArn,
        Condition: { [service.arnOperator]: { "aws:SourceArn": oneOrMany(arns) }, StringEquals: { "aws:SourceAccount": account } },
      });
    }
  }
  const principals = producers.flatMap((p) => ("AWS" in p.principal ? [p.principal.AWS] : []));
  if (principals.length > 0) {
    statements.push({ Sid: PRINCIPAL_PRODUCERS_SID, Effect: "Allow", Principal: { AWS: oneOrMany(principals) }, Action: "sqs:SendMessage", Resource: queueArn });
  }
  return statements;
}

/** A team's statement as the policy holds it: its own elements, in IAM's order, with the queue as its Resource. */
function teamStatement(s: QueuePolicyStatement, queueArn: string): Record<string, unknown> {
  return { Sid: s.Sid, Effect: s.Effect, Principal: s.Principal, Action: oneOrMany(s.Action), Resource: queueArn, ...(s.Condition ? { Condition: s.Condition } : {}) };
}

/** What the construct decides for a queue's policy, apart from its ARN and the stack's account. */
export interface PolicyInputs {
  readonly allowUnguardedDlqMoves: boolean;
  readonly allowQueuePurge: boolean;
  readonly queueAccess: ResolvedQueueAccess;
}

/** Every statement of one queue's policy, in the order written; empty when the queue needs no policy. */
export function queuePolicyStatements(queue: PolicyQueue, p: PolicyInputs, queueArn: string, stackAccount: string): Record<string, unknown>[] {
  const refused = guardedActions(p);
  if (queue === "dead-letter") {
    return [...guardStatements(queueArn, refused.deadLetterQueue), ...p.queueAccess.deadLetterQueueStatements.map((s) => teamStatement(s, queueArn))];
  }
  return [
    ...guardStatements(queueArn, refused.sourceQueue),
    ...producerStatements(declaredProducers(p.queueAccess, stackAccount), queueArn),
    ...p.queueAccess.sourceQueueStatements.map((s) => teamStatement(s, queueArn)),
  ];
}

/** The policy document (a JSON text, as `aws_sqs_queue_policy` takes it), or undefined when there is no statement. */
export function queuePolicyText(statements: readonly Record<string, unknown>[]): string | undefined {
  return statements.length === 0 ? undefined : JSON.stringify({ Version: "2012-10-17", Statement: statements });
}
