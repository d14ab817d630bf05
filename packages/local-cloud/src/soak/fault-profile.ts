import type { EarlyVisibilityExpiry } from "../cloud";
import { EFFECT_SK } from "@effectively-once/contract";
import type { FaultPlanSpec, FaultRule } from "../faults";
import type { LoadStackNames } from "../stack/load-stack";

/** Named fault profiles for the soak. */
export const FaultProfile = {
  /** No faults at all (the fault proxy is not even started). */
  None: "none",
  /** A bad day in production: a few percent of everything goes wrong, every kind at least now and then. */
  Realistic: "realistic",
  /** Several times the realistic rates: slower, but every path runs often. */
  Harsh: "harsh",
} as const;
export type FaultProfile = (typeof FaultProfile)[keyof typeof FaultProfile];

export interface FaultSetup {
  readonly faults?: FaultPlanSpec;
  readonly expireVisibilityEarly?: EarlyVisibilityExpiry;
  /** One line per rule, for the report and the docs. */
  readonly description: readonly string[];
}

/** Per-request (or per-invocation) probabilities of the realistic profile; the harsh one multiplies them. */
const REALISTIC_RATES = {
  lambdaFailBefore: 0.02,
  lambdaCrashAfterCharge: 0.01,
  lambdaHangAfterCharge: 0.002,
  lambdaDelay: 0.02,
  ledgerThrottle: 0.02,
  ledgerError: 0.003,
  functionTableThrottle: 0.01,
  dynamoLatency: 0.02,
  visibilityExpiredEarly: 0.01,
} as const;

const HARSH_FACTOR = 3;

/**
 * The fault plan of a profile for a synthesized stack. Every rule is seeded from `seed` (and its own id), so a
 * run can be repeated exactly as far as request order allows.
 */
export function faultSetup(profile: FaultProfile, names: LoadStackNames, seed: string | number): FaultSetup {
  if (profile === FaultProfile.None) return { description: ["none"] };
  const factor = profile === FaultProfile.Harsh ? HARSH_FACTOR : 1;
  const p = (rate: number) => Math.min(0.5, rate * factor);
  const r = REALISTIC_RATES;
  const charge = { table: names.effectsTable, operation: "PutItem", item: { sk: EFFECT_SK } };
  const fn = names.functionName;
  const rules: (FaultRule & { id: string })[] = [
    { service: "lambda", id: "lambda-fail-before", function: fn, action: "fail", when: "before", probability: p(r.lambdaFailBefore) },
    { service: "lambda", id: "lambda-crash-after-charge", function: fn, action: "crash", when: "after", sideEffect: charge, probability: p(r.lambdaCrashAfterCharge) },
    { service: "lambda", id: "lambda-hang-after-charge", function: fn, action: "hang", when: "after", sideEffect: charge, probability: p(r.lambdaHangAfterCharge) },
    { service: "lambda", id: "lambda-delay", function: fn, action: "delay", latencyMs: 200, probability: p(r.lambdaDelay) },
    {
      service: "dynamodb",
      id: "ledger-throttle",
      action: "throttle",
      error: "ProvisionedThroughputExceededException",
      match: { table: names.ledgerTable },
      probability: p(r.ledgerThrottle),
    },
    { service: "dynamodb", id: "ledger-error", action: "error", match: { table: names.ledgerTable }, probability: p(r.ledgerError) },
    {
      service: "dynamodb",
      id: "function-table-throttle",
      action: "throttle",
      error: "ThrottlingException",
      match: { table: [names.idempotencyTable, names.effectsTable] },
      probability: p(r.functionTableThrottle),
    },
    { service: "dynamodb", id: "dynamodb-latency", action: "latency", latencyMs: 25, probability: p(r.dynamoLatency) },
  ];
  const visibility = p(r.visibilityExpiredEarly);
  return {
    faults: { seed, rules },
    expireVisibilityEarly: { seed, probability: visibility },
    description: [...rules.map(describeRule), `sqs.visibility-expired-early  p=${visibility}  (a received message reappears at once while its batch runs)`],
  };
}

function describeRule(rule: FaultRule & { id: string }): string {
  const p = `p=${rule.probability}`;
  if (rule.service === "lambda") {
    const where = rule.sideEffect ? "the EFFECT put" : "the handler";
    if (rule.action === "delay") return `${rule.id}  ${p}  handler starts ${rule.latencyMs} ms late`;
    return `${rule.id}  ${p}  ${rule.action} ${rule.when} ${where}`;
  }
  if (rule.service === "dynamodb") {
    const tables = rule.match?.table ? `on ${[rule.match.table].flat().join(", ")}` : "on every table";
    if (rule.action === "latency") return `${rule.id}  ${p}  +${rule.latencyMs} ms ${tables}`;
    return `${rule.id}  ${p}  ${rule.action === "throttle" ? rule.error : "HTTP 500"} ${tables}`;
  }
  return `${rule.id}  ${p}`;
}
