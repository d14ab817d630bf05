import { Token } from "cdktf";
import { partitionOfRegion } from "@effectively-once/contract";
import { cite, type LimitSource } from "./aws-limits";
import { DATA_KEY_REUSE, type ResolvedEncryption } from "./encryption";
import type { PropProblem } from "./errors";
import { declaredProducers } from "./queue-access";
import { integerIn, type PropRule } from "./prop-rules";
import type { ResolvedPipelineProps } from "./props";
import { knownRegion } from "./region-rules";

/** A KMS key's ARN (`key/<id>`, multi-Region keys `key/mrk-…`); an alias ARN is refused: DynamoDB and CloudWatch Logs take key ARNs only. */
const KEY_ARN = /^arn:([a-z-]+):kms:([a-z0-9-]+):(\d{12}):key\/[A-Za-z0-9-]+$/;
const KEY_SOURCE: LimitSource = { doc: "https://docs.aws.amazon.com/AmazonCloudWatch/latest/logs/encrypt-log-data-kms.html" };
const SQS_KMS_SOURCE: LimitSource = { doc: "https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/sqs-key-management.html" };

/**
 * The source queue's producers as statements: each producer `queueAccess.producers` declares (an SNS topic, an
 * EventBridge rule and an S3 bucket become their service principals, queue-access.ts) and every Allow the team adds
 * in `queueAccess.sourceQueueStatements`. Only the principals are read here.
 */
function declaredProducerStatements(p: ResolvedPipelineProps): readonly unknown[] {
  // The account only fills the producers' aws:SourceAccount, which this rule does not read.
  const producers = declaredProducers(p.queueAccess, "").map((d) => ({ Principal: d.principal }));
  return [...producers, ...p.queueAccess.sourceQueueStatements.filter((s) => s.Effect === "Allow")];
}

/** The service principals (`sns.amazonaws.com`, `events.amazonaws.com`, `s3.amazonaws.com`…) a statement names. */
function servicePrincipals(statement: unknown): string[] {
  const principal = (statement as { Principal?: unknown } | null)?.Principal;
  if (principal === null || typeof principal !== "object") return [];
  const service = (principal as { Service?: unknown }).Service;
  return [service ?? []].flat().filter((s): s is string => typeof s === "string");
}

/**
 * With a customer managed key on the source queue, an AWS service that sends to it (SNS, EventBridge, S3) must be
 * allowed `kms:GenerateDataKey` and `kms:Decrypt` in the key's policy, which the construct does not own (the key is
 * the team's). Rather than let deliveries fail at run time (SNS drops them without a DLQ of its own), the synth refuses
 * the combination.
 */
export function keyProducerProblems(encryption: ResolvedEncryption | undefined, statements: readonly unknown[]): PropProblem[] {
  if (!encryption) return [];
  const services = [...new Set(statements.flatMap(servicePrincipals))];
  if (services.length === 0) return [];
  return [
    {
      prop: "encryption.kmsKeyArn",
      value: encryption.kmsKeyArn,
      reason: `encrypts the source queue, to which the service principal${services.length === 1 ? "" : "s"} ${services.join(", ")} deliver${services.length === 1 ? "s" : ""}: each needs kms:GenerateDataKey and kms:Decrypt in the key's policy, which the construct does not manage`,
      fix: `remove encryption, or remove those producers from queueAccess and send through a role that holds kms:GenerateDataKey on the key (${cite(SQS_KMS_SOURCE)}); a key the construct creates with those producers in its policy is not offered yet`,
    },
  ];
}

/** The key's ARN (shape, partition and region of the stack), the reuse period, and the producers it would lock out. */
export const ENCRYPTION_RULES: readonly PropRule[] = [
  {
    name: "encryption.kmsKeyArn",
    after: ["region"],
    check: (p): PropProblem | undefined => {
      const arn = p.encryption?.kmsKeyArn;
      if (p.encryption === undefined || (typeof arn === "string" && Token.isUnresolved(arn))) return undefined;
      const match = typeof arn === "string" ? KEY_ARN.exec(arn) : null;
      if (!match) {
        return {
          prop: "encryption.kmsKeyArn",
          value: arn,
          reason: "is not a KMS key ARN (arn:<partition>:kms:<region>:<account>:key/<key id>); CloudWatch Logs and DynamoDB take a key ARN, not an alias or a bare id",
          fix: `give the key's ARN, e.g. arn:aws:kms:eu-west-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab (${cite(KEY_SOURCE)})`,
        };
      }
      const known = knownRegion(p);
      if (!known) return undefined;
      const partition = partitionOfRegion(known.region);
      if (match[1] === partition && match[2] === known.region) return undefined;
      return {
        prop: "encryption.kmsKeyArn",
        value: arn,
        reason: `is a key in ${match[2]} (partition "${match[1]}"), but the stack deploys to ${known.region}: KMS keys are regional, and SQS, DynamoDB and CloudWatch Logs use a key of their own region`,
        fix: `give a key in ${known.region} (a multi-Region key's replica there has its own ARN)`,
      };
    },
  },
  {
    name: "encryption.dataKeyReuseSeconds",
    check: (p) =>
      p.encryption === undefined ? undefined : integerIn("encryption.dataKeyReuseSeconds", p.encryption.dataKeyReuseSeconds, DATA_KEY_REUSE.min, DATA_KEY_REUSE.max, `use ${DATA_KEY_REUSE.min}-${DATA_KEY_REUSE.max} (Step Functions accepts at most ${DATA_KEY_REUSE.max}; SQS 60-86400), e.g. ${DATA_KEY_REUSE.default}`),
  },
  {
    name: "encryption.producers",
    after: ["encryption.kmsKeyArn", "queueAccess.producers", "queueAccess.statements"],
    check: (p) => keyProducerProblems(p.encryption, declaredProducerStatements(p)),
  },
];
