import { InvalidFaultPlanError } from "./errors";
import { DynamoFaultAction, DynamoThrottleError, FaultTiming, LambdaFaultAction } from "./types";
import type { FaultPlanSpec, FaultRule } from "./types";

const lambdaActions: readonly string[] = Object.values(LambdaFaultAction);
const dynamoActions: readonly string[] = Object.values(DynamoFaultAction);
const throttleErrors: readonly string[] = Object.values(DynamoThrottleError);
const timings: readonly string[] = Object.values(FaultTiming);

/** Checks a spec on entry and gives every rule an id; throws InvalidFaultPlanError naming the field. */
export function validateFaultPlanSpec(spec: FaultPlanSpec): FaultRule[] {
  if (spec === null || typeof spec !== "object") fail("faults", "must be an object { seed, rules }");
  if (typeof spec.seed !== "string" && typeof spec.seed !== "number") {
    fail("faults.seed", "must be a string or a number (it makes every decision reproducible)");
  }
  if (!Array.isArray(spec.rules)) fail("faults.rules", "must be an array of rules (use [] for none)");
  const ids = new Set<string>();
  return spec.rules.map((rule, index) => {
    const field = `faults.rules[${index}]`;
    if (rule === null || typeof rule !== "object") fail(field, "must be an object");
    const id = rule.id ?? `${rule.service}#${index}`;
    if (ids.has(id)) fail(`${field}.id`, `"${id}" is used twice; give each rule its own id`);
    ids.add(id);
    checkGate(rule, field);
    switch (rule.service) {
      case "lambda":
        checkLambda(rule, field);
        break;
      case "dynamodb":
        checkDynamo(rule, field);
        break;
      case "stepfunctions":
        if (rule.action !== "delay") fail(`${field}.action`, 'must be "delay" for stepfunctions rules');
        checkLatency(rule.latencyMs, `${field}.latencyMs`);
        break;
      default:
        fail(`${field}.service`, 'must be "lambda", "dynamodb" or "stepfunctions"');
    }
    return { ...rule, id };
  });
}

function checkGate(rule: FaultRule, field: string): void {
  if (rule.times !== undefined && !(Number.isInteger(rule.times) && rule.times >= 0)) {
    fail(`${field}.times`, "must be a whole number ≥ 0 (the first N matches)");
  }
  if (rule.probability !== undefined && !(rule.probability >= 0 && rule.probability <= 1)) {
    fail(`${field}.probability`, "must be between 0 and 1");
  }
}

function checkLambda(rule: Extract<FaultRule, { service: "lambda" }>, field: string): void {
  if (typeof rule.function !== "string" || rule.function === "") {
    fail(`${field}.function`, "must name the function (its name, not its ARN)");
  }
  if (!lambdaActions.includes(rule.action)) fail(`${field}.action`, `must be one of ${lambdaActions.join(", ")}`);
  if (rule.action === "delay") {
    checkLatency(rule.latencyMs, `${field}.latencyMs`);
    if (rule.sideEffect !== undefined) fail(`${field}.sideEffect`, "is not used by delay rules; remove it");
    return;
  }
  if (rule.when === undefined || !timings.includes(rule.when)) {
    fail(`${field}.when`, 'must be "before" or "after" (relative to the side effect)');
  }
}

function checkDynamo(rule: Extract<FaultRule, { service: "dynamodb" }>, field: string): void {
  if (!dynamoActions.includes(rule.action)) fail(`${field}.action`, `must be one of ${dynamoActions.join(", ")}`);
  if (rule.action === "latency") checkLatency(rule.latencyMs, `${field}.latencyMs`);
  if (rule.error !== undefined && !throttleErrors.includes(rule.error)) {
    fail(`${field}.error`, `must be one of ${throttleErrors.join(", ")}`);
  }
}

function checkLatency(latencyMs: unknown, field: string): void {
  if (typeof latencyMs !== "number" || !(latencyMs >= 0)) fail(field, "must be a number of milliseconds ≥ 0");
}

function fail(field: string, fix: string): never {
  throw new InvalidFaultPlanError(`${field} ${fix}`);
}
