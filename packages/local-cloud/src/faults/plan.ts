import { matchesDynamoRequest } from "./dynamo-request";
import { createRng, hashString } from "./rng";
import type { Rng } from "./rng";
import type {
  DynamoFaultDecision,
  DynamoFaultRule,
  DynamoRequestInfo,
  FaultEvent,
  FaultPlan,
  FaultPlanSpec,
  FaultReport,
  FaultRule,
  LambdaFaultDecision,
  LambdaFaultPoint,
  LambdaFaultRule,
  StepFaultDecision,
  StepFaultPoint,
  StepFaultRule,
} from "./types";
import { validateFaultPlanSpec } from "./validate";

/** Options that make a plan testable. */
interface FaultPlanOptions {
  /** Clock for event timestamps (default Date.now). */
  now?: () => number;
}

/** A rule with its own RNG stream and injection count. */
interface LiveRule<R extends FaultRule> {
  rule: R & { id: string };
  rng: Rng;
  fired: number;
}

/**
 * Builds a live plan from a spec. Each rule draws from its own RNG stream, seeded from the plan seed and the
 * rule id, so adding a rule does not shift the decisions of the others. A decision is recorded as injected the
 * moment it is returned: callers must act on every decision they receive.
 */
export function createFaultPlan(spec: FaultPlanSpec, options: FaultPlanOptions = {}): FaultPlan {
  const rules = validateFaultPlanSpec(spec);
  const seed = String(spec.seed);
  const now = options.now ?? Date.now;
  const live = rules.map((rule) => ({
    rule: rule as FaultRule & { id: string },
    rng: createRng(hashString(`${seed}:${rule.id}`)),
    fired: 0,
  }));
  const lambdaRules = live.filter((r): r is LiveRule<LambdaFaultRule> => r.rule.service === "lambda");
  const dynamoRules = live.filter((r): r is LiveRule<DynamoFaultRule> => r.rule.service === "dynamodb");
  const stepRules = live.filter((r): r is LiveRule<StepFaultRule> => r.rule.service === "stepfunctions");
  const log: FaultEvent[] = [];

  /** Applies times/probability; draws from the rule's RNG only when the count still allows a fault. */
  function gate(entry: LiveRule<FaultRule>): boolean {
    const { times, probability } = entry.rule;
    if (times !== undefined && entry.fired >= times) return false;
    if (probability !== undefined && probability < 1 && !(entry.rng.next() < probability)) return false;
    return true;
  }

  function record(entry: LiveRule<FaultRule>, kind: string, target: string): void {
    entry.fired += 1;
    log.push({ seq: log.length + 1, ruleId: entry.rule.id, kind, target, at: now() });
  }

  function lambdaDecision(entry: LiveRule<LambdaFaultRule>): LambdaFaultDecision {
    const { rule } = entry;
    return {
      ruleId: rule.id,
      action: rule.action,
      when: rule.when,
      errorType: rule.errorType ?? "InjectedTransientError",
      errorMessage: rule.errorMessage ?? `Injected ${rule.action} ${rule.when ?? ""} (fault rule ${rule.id})`.trim(),
      latencyMs: rule.latencyMs ?? 0,
    };
  }

  return {
    seed,
    rules,

    decideLambda(point: LambdaFaultPoint): LambdaFaultDecision | undefined {
      for (const entry of lambdaRules) {
        const { rule } = entry;
        if (rule.action === "delay" || rule.function !== point.functionName || rule.when !== point.when) continue;
        // Side-effect rules answer only at DynamoDB requests; the others only around the handler run.
        if (point.request === undefined ? rule.sideEffect !== undefined : rule.sideEffect === undefined) continue;
        if (point.request !== undefined && !matchesDynamoRequest(rule.sideEffect, point.request)) continue;
        if (!gate(entry)) continue;
        record(entry, `lambda.${rule.action}.${rule.when}`, point.functionName);
        return lambdaDecision(entry);
      }
      return undefined;
    },

    decideLambdaDelay(functionName: string): LambdaFaultDecision | undefined {
      for (const entry of lambdaRules) {
        if (entry.rule.action !== "delay" || entry.rule.function !== functionName || !gate(entry)) continue;
        record(entry, "lambda.delay", functionName);
        return lambdaDecision(entry);
      }
      return undefined;
    },

    decideDynamo(request: DynamoRequestInfo): DynamoFaultDecision | undefined {
      let latencyMs = 0;
      let failure: DynamoFaultDecision["failure"];
      const ruleIds: string[] = [];
      for (const entry of dynamoRules) {
        const { rule } = entry;
        const wantsLatency = rule.action === "latency";
        // One latency and one failure at most per request: the first matching rule of each wins.
        if (wantsLatency ? latencyMs > 0 : failure !== undefined) continue;
        if (!matchesDynamoRequest(rule.match, request) || !gate(entry)) continue;
        record(entry, `dynamodb.${rule.action}`, request.tables.join(",") || request.operation);
        ruleIds.push(rule.id);
        if (wantsLatency) {
          latencyMs = rule.latencyMs ?? 0;
        } else if (rule.action === "throttle") {
          failure = { ruleId: rule.id, action: "throttle", errorType: rule.error ?? "ProvisionedThroughputExceededException" };
        } else {
          failure = { ruleId: rule.id, action: "error", errorType: "InternalServerError" };
        }
      }
      return ruleIds.length === 0 ? undefined : { latencyMs, failure, ruleIds };
    },

    decideStep(point: StepFaultPoint): StepFaultDecision | undefined {
      for (const entry of stepRules) {
        const { rule } = entry;
        if (rule.state !== undefined && !listHas(rule.state, point.state)) continue;
        if (rule.stateMachine !== undefined && !listHas(rule.stateMachine, point.stateMachine)) continue;
        if (!gate(entry)) continue;
        record(entry, "stepfunctions.delay", point.state);
        return { ruleId: rule.id, latencyMs: rule.latencyMs };
      }
      return undefined;
    },

    hasSideEffectRules(functionName?: string): boolean {
      return lambdaRules.some(
        (entry) =>
          entry.rule.sideEffect !== undefined && (functionName === undefined || entry.rule.function === functionName),
      );
    },

    report(): FaultReport {
      const byKind: Record<string, number> = {};
      const byRule: Record<string, number> = {};
      for (const event of log) {
        byKind[event.kind] = (byKind[event.kind] ?? 0) + 1;
        byRule[event.ruleId] = (byRule[event.ruleId] ?? 0) + 1;
      }
      return { seed, total: log.length, byKind, byRule };
    },

    events(): readonly FaultEvent[] {
      return log;
    },
  };
}

function listHas(list: string | string[], value: string | undefined): boolean {
  if (value === undefined) return false;
  return Array.isArray(list) ? list.includes(value) : list === value;
}
