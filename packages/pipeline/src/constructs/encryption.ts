import type { PolicyStatement } from "./function-props";
import type { StackArnScope } from "./stack-data";

/**
 * One customer managed KMS key for everything the pipeline stores: both queues (SQS SSE-KMS), the ledger and the
 * idempotency table, the three log groups, the state machine (definition and execution data) and the function's
 * environment. The key is yours (the construct never creates one): its key policy decides who may use it, so it must
 * let CloudWatch Logs and every producer of the source queue use it (docs/construct.md, "Encryption with your own
 * KMS key", shows the policy). The roles get only the KMS calls each service makes for them, on this key only.
 */
export interface PipelineEncryptionProps {
  /** ARN of a symmetric customer managed key in the stack's region (`arn:aws:kms:<region>:<account>:key/<id>`; no alias: CloudWatch Logs and DynamoDB take a key ARN). */
  readonly kmsKeyArn: string;
  /**
   * How long SQS and Step Functions reuse a data key before asking KMS for a new one (fewer KMS calls, lower cost):
   * 60-900 seconds, the range both accept (Step Functions allows at most 900, SQS up to 86,400). @default 300
   */
  readonly dataKeyReuseSeconds?: number;
}

export interface ResolvedEncryption {
  readonly kmsKeyArn: string;
  readonly dataKeyReuseSeconds: number;
}

export const DATA_KEY_REUSE = { min: 60, max: 900, default: 300 } as const;

export function resolveEncryption(e: PipelineEncryptionProps | undefined): ResolvedEncryption | undefined {
  return e === undefined ? undefined : { kmsKeyArn: e.kmsKeyArn, dataKeyReuseSeconds: e.dataKeyReuseSeconds ?? DATA_KEY_REUSE.default };
}

/** SQS: SSE-KMS with the key, else SQS-managed SSE (the provider refuses both at once). */
export function queueEncryption(e: ResolvedEncryption | undefined) {
  return e ? { kmsMasterKeyId: e.kmsKeyArn, kmsDataKeyReusePeriodSeconds: e.dataKeyReuseSeconds } : { sqsManagedSseEnabled: true };
}

/** DynamoDB: the key, else the AWS managed key (`enabled` without a key ARN). */
export function tableEncryption(e: { readonly kmsKeyArn: string } | undefined) {
  return { enabled: true, ...(e ? { kmsKeyArn: e.kmsKeyArn } : {}) };
}

/** CloudWatch Logs: `kms_key_id` takes the key's ARN; the key policy must allow the logs service principal. */
export function logGroupEncryption(e: ResolvedEncryption | undefined) {
  return e ? { kmsKeyId: e.kmsKeyArn } : {};
}

/** Step Functions: the definition and execution data under the key. */
export function stateMachineEncryption(e: ResolvedEncryption | undefined) {
  return e ? { encryptionConfiguration: { type: "CUSTOMER_MANAGED_KMS_KEY", kmsKeyId: e.kmsKeyArn, kmsDataKeyReusePeriodSeconds: e.dataKeyReuseSeconds } } : {};
}

/** Lambda: the environment variables under the key. */
export function functionEncryption(e: ResolvedEncryption | undefined) {
  return e ? { kmsKeyArn: e.kmsKeyArn } : {};
}

/** A statement with a condition (the construct's own; `PolicyStatement` is the shape a team passes in). */
export interface KeyStatement extends PolicyStatement {
  readonly Condition: Record<string, Record<string, string | readonly string[]>>;
}

const via = (s: StackArnScope, ...services: string[]) => ({ "kms:ViaService": services.map((service) => `${service}.${s.region}.${s.dnsSuffix}`) });

/**
 * What each role needs of the key, each call only through the service that makes it for the role (`kms:ViaService`),
 * as each service documents it:
 * - SQS: a consumer decrypts (`kms:Decrypt`); a producer also makes data keys (`kms:GenerateDataKey`) (SQS developer
 *   guide, "Configuring KMS permissions for producers and consumers");
 * - DynamoDB: reads and writes of a table under a customer managed key use `kms:Decrypt` and `kms:GenerateDataKey`
 *   through DynamoDB (DynamoDB developer guide, "How Amazon DynamoDB uses AWS KMS": the key policy's `kms:ViaService`);
 * - Step Functions: the execution role decrypts and makes data keys for the state machine's own data, bound to it by
 *   the encryption context `aws:states:stateMachineArn` (Step Functions guide, "Data at rest encryption");
 * - Lambda: the environment is decrypted for the function (`kms:Decrypt` through Lambda; Lambda guide, "Securing
 *   environment variables").
 * The endpoint names carry the partition's DNS suffix (`amazonaws.com.cn` in China), from `data "aws_partition"`.
 */
export const keyGrants = {
  pipe: (e: ResolvedEncryption | undefined, s: StackArnScope): KeyStatement[] =>
    e ? [{ Sid: "DecryptSource", Effect: "Allow", Action: ["kms:Decrypt"], Resource: [e.kmsKeyArn], Condition: { StringEquals: via(s, "sqs") } }] : [],
  workflow: (e: ResolvedEncryption | undefined, s: StackArnScope, stateMachineArn: string): KeyStatement[] =>
    e
      ? [
          { Sid: "KeyForLedgerAndQuarantine", Effect: "Allow", Action: ["kms:Decrypt", "kms:GenerateDataKey"], Resource: [e.kmsKeyArn], Condition: { StringEquals: via(s, "dynamodb", "sqs") } },
          { Sid: "KeyForOwnData", Effect: "Allow", Action: ["kms:Decrypt", "kms:GenerateDataKey"], Resource: [e.kmsKeyArn], Condition: { StringEquals: { "kms:EncryptionContext:aws:states:stateMachineArn": stateMachineArn } } },
        ]
      : [],
  function: (e: ResolvedEncryption | undefined, s: StackArnScope): KeyStatement[] =>
    e
      ? [
          { Sid: "KeyForIdempotencyRecords", Effect: "Allow", Action: ["kms:Decrypt", "kms:GenerateDataKey"], Resource: [e.kmsKeyArn], Condition: { StringEquals: via(s, "dynamodb") } },
          { Sid: "KeyForEnvironment", Effect: "Allow", Action: ["kms:Decrypt"], Resource: [e.kmsKeyArn], Condition: { StringEquals: via(s, "lambda") } },
        ]
      : [],
};
