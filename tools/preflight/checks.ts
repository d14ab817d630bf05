import { LAMBDA_RATE_FACTOR, DEFAULT_QUOTAS } from "../capacity/quotas";
import type { AccountReader } from "./aws";
import { QUOTA_SERVICES, type StackFunction } from "./calls";

/**
 * What only the account knows, against what the stack asks: AWS keeps at least 100 concurrent executions
 * unreserved ("You can reserve up to the Unreserved account concurrency value minus 100", Lambda developer guide,
 * configuration-concurrency.html), and the capacity plan assumes AWS's default quotas, which a new account does not
 * have yet.
 */
const UNRESERVED_FLOOR = 100;

export type Level = "ok" | "warn" | "fail";
export interface Finding {
  readonly level: Level;
  readonly text: string;
}

/** Service Quotas names that bound the pipeline (the capacity planner's parts), by service code. */
const QUOTAS_THAT_MATTER = /concurren|in flight|inflight|StartSyncExecution|StartExecution|state transition|pipe|invocation/i;

export async function runChecks(reader: AccountReader, functions: readonly StackFunction[], expectedAccount?: string): Promise<Finding[]> {
  const findings: Finding[] = [];
  const who = await reader.callerIdentity();
  if (expectedAccount && who.account !== expectedAccount) findings.push({ level: "fail", text: `the credentials are for account ${who.account} (${who.arn}), not ${expectedAccount}: use the deploy account's credentials` });
  else findings.push({ level: "ok", text: `account ${who.account} (${who.arn})` });

  const settings = await reader.accountSettings();
  const concurrency = settings.concurrentExecutions;
  const planned = DEFAULT_QUOTAS["lambda.concurrency"].value;
  findings.push({
    level: concurrency < planned ? "warn" : "ok",
    text: `Lambda concurrent executions ${concurrency} (invocations ${LAMBDA_RATE_FACTOR * concurrency}/s account-wide)${concurrency < planned ? `: below the ${planned} the capacity plan assumes; re-plan with npm run capacity:plan -- --rate N --quota lambda.concurrency=${concurrency}` : ""}`,
  });
  let unreserved = settings.unreservedConcurrentExecutions;
  for (const fn of functions) {
    const existing = await reader.functionConcurrency(fn.name);
    // A re-deploy replaces the function's own reservation: what it holds today comes back to the pool first.
    const pool = unreserved + (existing ?? 0);
    if (fn.reserved === null) {
      findings.push({ level: "ok", text: `${fn.name}: no reservation; it shares the ${pool} unreserved with every other function of the account` });
      continue;
    }
    const left = pool - fn.reserved;
    if (left < UNRESERVED_FLOOR) {
      const most = Math.max(0, pool - UNRESERVED_FLOOR);
      findings.push({ level: "fail", text: `${fn.name}: reservedConcurrency ${fn.reserved} would leave ${left} unreserved (AWS requires at least ${UNRESERVED_FLOOR}; ${pool} are free${existing ? `, its current ${existing} included` : ""}); apply would fail: reserve at most ${most}, or request Lambda concurrent executions ≥ ${concurrency + (UNRESERVED_FLOOR - left)}` });
    } else findings.push({ level: "ok", text: `${fn.name}: reservedConcurrency ${fn.reserved} leaves ${left} unreserved (≥ ${UNRESERVED_FLOOR})` });
    unreserved = left;
  }

  for (const code of QUOTA_SERVICES) {
    const quotas = await reader.serviceQuotas(code);
    if (quotas === undefined) {
      findings.push({ level: "warn", text: `${code}: Service Quotas lists no quotas here; check AWS's documented defaults (npm run capacity:plan prints each with its source)` });
      continue;
    }
    for (const q of quotas.filter((x) => QUOTAS_THAT_MATTER.test(x.name)).sort((a, b) => a.name.localeCompare(b.name))) {
      findings.push({ level: "ok", text: `${code} ${q.code} "${q.name}": ${q.value}${q.adjustable ? " (adjustable)" : ""}` });
    }
  }
  return findings;
}
