import type { SynthesizedStack } from "@effectively-once/local-cloud/terraform-json";

/**
 * The read-only AWS calls `npm run preflight` makes, each with why: what only the account knows (its concurrency,
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
export const QUOTA_SERVICES = ["lambda", "states", "sqs", "pipes"] as const;

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

export function plannedCalls(stack: SynthesizedStack): PlannedCall[] {
  return [
    { action: "sts:GetCallerIdentity", params: {}, why: "which account the checks describe" },
    { action: "lambda:GetAccountSettings", params: {}, why: "the account's concurrency and what stays unreserved (at least 100 must)" },
    ...stackFunctions(stack).map((fn) => ({ action: "lambda:GetFunctionConcurrency", params: { FunctionName: fn.name }, why: "what the function already reserves, if it exists (a re-deploy frees it first)" })),
    ...QUOTA_SERVICES.map((code) => ({ action: "servicequotas:ListServiceQuotas", params: { ServiceCode: code }, why: `the applied ${code} quotas the capacity plan assumes defaults for` })),
  ];
}
