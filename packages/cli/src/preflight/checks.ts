import type { SynthesizedStack } from "@effectively-once/local-cloud/terraform-json";
import { partitionOfRegion } from "@effectively-once/contract";
import type { CapacityPlan } from "../capacity/plan";
import { LAMBDA_RATE_FACTOR, DEFAULT_QUOTAS } from "../capacity/quotas";
import { dynamodbFindings, iamFindings, memoryFindings, pipesFindings } from "./account-checks";
import type { AccountReader } from "./aws";
import { QUOTA_SERVICES, type StackFunction } from "./calls";
import type { Finding } from "./finding";
import { nameFindings } from "./name-checks";
import { NameType, stackNames } from "./names";
import { permissionFindings } from "./permission-checks";
import { quotaFindings } from "./quota-checks";

/**
 * What only the account knows, against what the stack asks: AWS keeps at least 100 concurrent executions
 * unreserved ("You can reserve up to the Unreserved account concurrency value minus 100", Lambda developer guide,
 * configuration-concurrency.html), and the capacity plan assumes AWS's default quotas, which a new account does not
 * have yet.
 */
const UNRESERVED_FLOOR = 100;


export interface CheckInput {
  readonly stack: SynthesizedStack;
  readonly region: string;
  readonly functions: readonly StackFunction[];
  readonly expectedAccount?: string;
  /** `<type> <name>` of what the stack's Terraform state holds (--state): existing names that are the stack's own. */
  readonly owned?: ReadonlySet<string>;
  /** The capacity plan at --rate, when given: every listed quota is judged against it. */
  readonly plan?: CapacityPlan;
}

/** Each section: its title and findings, in the order printed. */
export interface Section {
  readonly title: string;
  readonly findings: readonly Finding[];
}

async function concurrencyFindings(reader: AccountReader, functions: readonly StackFunction[], concurrency: number, unreservedNow: number): Promise<Finding[]> {
  const findings: Finding[] = [];
  const planned = DEFAULT_QUOTAS["lambda.concurrency"].value;
  findings.push({
    level: concurrency < planned ? "warn" : "ok",
    text: `Lambda concurrent executions ${concurrency} (invocations ${LAMBDA_RATE_FACTOR * concurrency}/s account-wide)${concurrency < planned ? `: below the ${planned} the capacity plan assumes; re-plan with npx effectively-once capacity --rate N --quota lambda.concurrency=${concurrency}` : ""}`,
  });
  let unreserved = unreservedNow;
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
  return findings;
}

export async function runChecks(reader: AccountReader, input: CheckInput): Promise<Section[]> {
  const who = await reader.callerIdentity();
  const account: Finding[] = [
    input.expectedAccount && who.account !== input.expectedAccount
      ? { level: "fail", text: `the credentials are for account ${who.account} (${who.arn}), not ${input.expectedAccount}: use the deploy account's credentials` }
      : { level: "ok", text: `account ${who.account} (${who.arn})` },
  ];
  const env = { partition: partitionOfRegion(input.region), account: who.account, region: input.region };
  const names = stackNames(input.stack, env);
  const settings = await reader.accountSettings();
  const quotas = new Map<string, Awaited<ReturnType<AccountReader["serviceQuotas"]>>>();
  for (const code of QUOTA_SERVICES) quotas.set(code, await reader.serviceQuotas(code));
  const listed: Finding[] = [];
  for (const code of QUOTA_SERVICES) {
    const q = quotas.get(code);
    if (q === undefined) listed.push({ level: "warn", text: `${code}: Service Quotas lists no quotas here; check AWS's documented defaults (npx effectively-once capacity prints each with its source)` });
    else listed.push(...quotaFindings(code, q, input.plan));
  }
  const created = (kind: NameType) => names.filter((n) => n.kind === kind && !input.owned?.has(`${n.type} ${n.name}`)).length;
  return [
    { title: "Account", findings: account },
    { title: "Region", findings: await pipesFindings(reader, input.region) },
    { title: `Names (${names.length})`, findings: await nameFindings(reader.names, names, input.owned) },
    { title: "Lambda", findings: [...(await concurrencyFindings(reader, input.functions, settings.concurrentExecutions, settings.unreservedConcurrentExecutions)), ...memoryFindings(input.stack, settings.concurrentExecutions, DEFAULT_QUOTAS["lambda.concurrency"].value)] },
    { title: input.plan ? `Quotas against the capacity plan at ${input.plan.rate} msg/s` : "Quotas against what the capacity plan assumes (pass --rate N to judge them)", findings: listed },
    { title: "IAM", findings: await iamFindings(reader, input.stack, env, created(NameType.Role)) },
    { title: "DynamoDB", findings: await dynamodbFindings(reader, quotas.get("dynamodb"), created(NameType.Table)) },
    { title: "Deployer rights", findings: await permissionFindings(reader.iam, who.arn, input.stack, env) },
  ];
}
