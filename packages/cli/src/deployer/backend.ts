import type { SynthesizedStack } from "@effectively-once/local-cloud/terraform-json";
import type { ArnEnv } from "@effectively-once/local-cloud/terraform-json";
import { DeployerPolicyError } from "./errors";

/**
 * What the deployer needs of the stack's remote state, read from the synthesized `terraform.backend` block (cdktf's
 * `S3Backend` writes `backend.s3`). For the S3 backend, Terraform's documentation ("Backend Type: s3", Permissions
 * Required) lists: `s3:ListBucket` on the bucket, `s3:GetObject` and `s3:PutObject` on the state's key, and for the
 * lock either `s3:GetObject`, `s3:PutObject` and `s3:DeleteObject` on `<key>.tflock` (`use_lockfile`) or
 * `dynamodb:DescribeTable`, `GetItem`, `PutItem` and `DeleteItem` on the lock table (`dynamodb_table`); with
 * `kms_key_id`, the state object's key. Other backends (local, HCP Terraform) need no AWS rights.
 */
export interface BackendRights {
  /** What the rights cover, for the CLI's summary. */
  readonly description: string;
  readonly statements: readonly Record<string, unknown>[];
}

const text = (value: unknown, field: string): string => {
  if (typeof value !== "string" || value === "" || value.includes("${")) throw new DeployerPolicyError(`terraform.backend.s3.${field} must be a literal string (Terraform reads backend settings before anything else): got ${JSON.stringify(value)}`);
  return value;
};

export function backendRights(stack: SynthesizedStack, env: ArnEnv): BackendRights | undefined {
  const backends = (stack.terraform.backend ?? {}) as Record<string, Record<string, unknown>>;
  const s3 = backends.s3;
  if (s3 === undefined) return undefined;
  const bucket = text(s3.bucket, "bucket");
  const key = text(s3.key, "key");
  // A workspace other than `default` keeps its state under `<workspace_key_prefix>/<workspace>/<key>`; cdktf uses the default one.
  const object = `arn:${env.partition}:s3:::${bucket}/${key}`;
  const statements: Record<string, unknown>[] = [
    { Sid: "StateBucket", Effect: "Allow", Action: ["s3:ListBucket"], Resource: [`arn:${env.partition}:s3:::${bucket}`] },
    { Sid: "StateObject", Effect: "Allow", Action: ["s3:GetObject", "s3:PutObject"], Resource: [object] },
  ];
  const locks: string[] = [];
  if (s3.use_lockfile === true) {
    statements.push({ Sid: "StateLockFile", Effect: "Allow", Action: ["s3:GetObject", "s3:PutObject", "s3:DeleteObject"], Resource: [`${object}.tflock`] });
    locks.push(`lock file ${key}.tflock`);
  }
  if (s3.dynamodb_table !== undefined) {
    const table = text(s3.dynamodb_table, "dynamodb_table");
    const region = typeof s3.region === "string" ? s3.region : env.region;
    statements.push({ Sid: "StateLockTable", Effect: "Allow", Action: ["dynamodb:DescribeTable", "dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:DeleteItem"], Resource: [`arn:${env.partition}:dynamodb:${region}:${env.account}:table/${table}`] });
    locks.push(`lock table ${table}`);
  }
  if (typeof s3.kms_key_id === "string") {
    statements.push({ Sid: "StateKey", Effect: "Allow", Action: ["kms:Decrypt", "kms:Encrypt", "kms:GenerateDataKey"], Resource: [text(s3.kms_key_id, "kms_key_id")] });
  }
  return { description: `S3 backend s3://${bucket}/${key}${locks.length ? `, ${locks.join(", ")}` : ", no lock (set use_lockfile or dynamodb_table)"}`, statements };
}
