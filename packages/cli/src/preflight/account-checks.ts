import { resolveText } from "../iam/stack-values";
import type { ArnEnv, SynthesizedStack } from "@effectively-once/local-cloud/terraform-json";
import type { AccountReader } from "./aws";
import type { AppliedQuota } from "./quota-checks";
import type { Finding } from "./finding";
import { judgeRegion } from "./regions";

const LAMBDA_QUOTAS_PAGE = "https://docs.aws.amazon.com/lambda/latest/dg/gettingstarted-limits.html";

/** EventBridge Pipes in the region: botocore's endpoint list, then the region's own answer (ListPipes). */
export async function pipesFindings(reader: AccountReader, region: string): Promise<Finding[]> {
  const verdict = judgeRegion(region);
  const answers = await reader.names.pipesAnswer();
  if (!answers) {
    return [{ level: "fail", text: `EventBridge Pipes does not answer in ${region} (pipes.${region} does not resolve)${verdict.kind === "known" && verdict.pipesListed ? ", although botocore lists it there" : ""}: the pipe cannot be created. Fix: deploy to a region with Pipes` }];
  }
  if (verdict.kind === "unknown") return [{ level: "warn", text: `${region} is not in the preflight's region list (botocore 1.43.11), but Pipes answers there` }];
  return [{ level: "ok", text: `EventBridge Pipes answers in ${region}` }];
}

/** IAM: room for the stack's new roles under the account's role quota, and each role's inline policies under their size quota. */
export async function iamFindings(reader: AccountReader, stack: SynthesizedStack, env: ArnEnv, newRoles: number): Promise<Finding[]> {
  const summary = await reader.iam.accountSummary();
  const findings: Finding[] = [];
  const roles = summary.get("Roles");
  const rolesQuota = summary.get("RolesQuota");
  if (roles !== undefined && rolesQuota !== undefined) {
    findings.push(
      roles + newRoles > rolesQuota
        ? { level: "fail", text: `IAM roles: ${roles} of ${rolesQuota} exist and the stack adds ${newRoles}: CreateRole would fail (LimitExceeded). Fix: delete unused roles or request a higher "Roles per account" quota` }
        : { level: "ok", text: `IAM roles: ${roles} + ${newRoles} new ≤ ${rolesQuota}` },
    );
  }
  const sizeQuota = summary.get("RolePolicySizeQuota");
  if (sizeQuota !== undefined) {
    // IAM counts a role's inline policies together, without whitespace (the same quota the summary reports).
    const perRole = new Map<string, number>();
    // A reference these tools cannot evaluate stays as written: its length is then an estimate.
    const text = (value: unknown, where: string) => {
      try {
        return resolveText(stack, String(value), env, where);
      } catch {
        return String(value);
      }
    };
    for (const [id, block] of Object.entries(stack.resources.aws_iam_role_policy ?? {})) {
      const role = text(block.role, `aws_iam_role_policy.${id}.role`);
      const size = text(block.policy, `aws_iam_role_policy.${id}.policy`).replace(/\s/g, "").length;
      perRole.set(role, (perRole.get(role) ?? 0) + size);
    }
    for (const [role, size] of [...perRole].sort()) {
      findings.push(
        size > sizeQuota
          ? { level: "fail", text: `IAM role ${role}: inline policies of ${size} characters exceed the account's ${sizeQuota}: PutRolePolicy would fail. Fix: trim function.policyStatements` }
          : { level: "ok", text: `IAM role ${role}: inline policies ${size} of ${sizeQuota} characters` },
      );
    }
  }
  return findings;
}

/** DynamoDB: room for the stack's new tables under the region's table quota, when Service Quotas lists it. */
export async function dynamodbFindings(reader: AccountReader, quotas: readonly AppliedQuota[] | undefined, newTables: number): Promise<Finding[]> {
  const quota = quotas?.find((q) => /maximum number of tables/i.test(q.name));
  if (!quota) return [{ level: "info", text: "DynamoDB: Service Quotas lists no table quota here (not judged)" }];
  const tables = await reader.names.tableCount();
  return [
    tables + newTables > quota.value
      ? { level: "fail", text: `DynamoDB tables: ${tables} exist and the stack adds ${newTables}, over the region's ${quota.value} (${quota.code}): CreateTable would fail (LimitExceededException). Fix: request more, or delete unused tables` }
      : { level: "ok", text: `DynamoDB tables: ${tables} + ${newTables} new ≤ ${quota.value} (${quota.code})` },
  ];
}

/**
 * Lambda's memory: no API reports an account's memory quota, and AWS says "New AWS accounts have reduced concurrency
 * and memory quotas" (LAMBDA_QUOTAS_PAGE). A concurrency below the default is the sign of such an account.
 */
export function memoryFindings(stack: SynthesizedStack, concurrency: number, defaultConcurrency: number): Finding[] {
  return Object.values(stack.resources.aws_lambda_function ?? {}).map((fn) => {
    const memory = typeof fn.memory_size === "number" ? fn.memory_size : 128;
    const name = String(fn.function_name);
    return concurrency < defaultConcurrency
      ? { level: "warn", text: `${name}: ${memory} MB of memory. This account's concurrency (${concurrency} < ${defaultConcurrency}) marks a new account, which has a reduced memory quota that no API reports (${LAMBDA_QUOTAS_PAGE}); if CreateFunction refuses the memory, lower function.memoryMb or ask AWS Support to raise it` }
      : { level: "ok", text: `${name}: ${memory} MB of memory (the account's concurrency is at its default, no new-account reduction expected)` };
  });
}
