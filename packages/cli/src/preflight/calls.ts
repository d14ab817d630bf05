import type { SynthesizedStack } from "@effectively-once/local-cloud/terraform-json";
import { lookupAction } from "./names";

/**
 * The read-only AWS calls `npx effectively-once preflight` makes, each with why: what only the account knows (its concurrency,
 * what other functions already reserved, its quotas) against what the stack asks for. `--dry-run` prints this list
 * and calls nothing. Only Get/List operations: a preflight never changes the account.
 */
export interface PlannedCall {
  /** IAM's name of the call, for the reader's own policy: `lambda:GetAccountSettings`. */
  readonly action: string;
  readonly params: Readonly<Record<string, string>>;
  readonly why: string;
}

/** Service Quotas service codes whose quotas bound the pipeline. */
export const QUOTA_SERVICES = ["lambda", "states", "sqs", "pipes", "dynamodb"] as const;

export interface StackFunction {
  readonly name: string;
  /** The stack's reserved concurrency, or null for the account's shared pool. */
  readonly reserved: number | null;
}

/** The stack's functions, with their reservations (`reserved_concurrent_executions`; absent or -1 = none). */
export function stackFunctions(stack: SynthesizedStack): StackFunction[] {
  return Object.values(stack.resources.aws_lambda_function ?? {}).map((fn) => {
    const reserved = fn.reserved_concurrent_executions;
    return { name: String(fn.function_name), reserved: typeof reserved === "number" && reserved >= 0 ? reserved : null };
  });
}

/**
 * Every call, in the order the checks make them. Names are shown as the stack writes them (a name that carries the
 * region reads data "aws_region"; the run evaluates it in the region checked). The calls that depend on an answer
 * (the role GetRole looks up for an assumed-role caller, the table count when a table quota is listed, the simulation's
 * batches, one per statement of the deployer policy) are listed once each.
 */
export function plannedCalls(stack: SynthesizedStack): PlannedCall[] {
  const names: PlannedCall[] = [];
  for (const [type, blocks] of Object.entries(stack.resources)) {
    const action = lookupAction(type);
    if (!action) continue;
    for (const block of Object.values(blocks)) {
      const name = [block.name, block.function_name, block.dashboard_name].find((v) => typeof v === "string");
      names.push({ action, params: { Name: String(name) }, why: "whether the name already exists (a create would fail half way, or take an existing queue or dashboard over)" });
    }
  }
  return [
    { action: "sts:GetCallerIdentity", params: {}, why: "which account the checks describe" },
    ...names,
    { action: "lambda:GetAccountSettings", params: {}, why: "the account's concurrency and what stays unreserved (at least 100 must)" },
    ...QUOTA_SERVICES.map((code) => ({ action: "servicequotas:ListServiceQuotas", params: { ServiceCode: code }, why: `the applied ${code} quotas, judged against the capacity plan` })),
    { action: "pipes:ListPipes", params: {}, why: "whether EventBridge Pipes answers in the region" },
    ...stackFunctions(stack).map((fn) => ({ action: "lambda:GetFunctionConcurrency", params: { FunctionName: fn.name }, why: "what the function already reserves, if it exists (a re-deploy frees it first)" })),
    { action: "iam:GetAccountSummary", params: {}, why: "the account's roles against its role quota, and the inline policy size quota" },
    { action: "dynamodb:ListTables", params: {}, why: "the region's tables against its table quota, when Service Quotas lists one" },
    { action: "iam:GetRole", params: {}, why: "an assumed-role caller's role ARN (with its path), for the simulation" },
    { action: "iam:SimulatePrincipalPolicy", params: {}, why: "whether the caller may make the deployer policy's calls (SCPs and boundaries count; session policies are not evaluated)" },
  ];
}
