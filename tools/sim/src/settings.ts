/**
 * The simulated stack's settings: the domain of the app the simulation targets (the payments example, by name: its
 * model speaks of amounts and currencies), or a drawn one (domain/space.ts), through the construct's own `resolveProps` (so the defaults are the
 * deployed ones), rendered by the one renderer with literal names. Props become render parameters and the function's
 * environment through the construct's own mapping (`definitionParams`, `functionVariables`), so the simulation runs
 * the definition and the environment a deploy would.
 */
import { CONFLICT_ERROR_NAMES, PERMANENT_ERROR_NAMES } from "@effectively-once/contract";
import { ContractEnv } from "@effectively-once/contract";
import { definitionParams, functionVariables, resolveProps, type IdempotentPipelineProps, type ResolvedPipelineProps } from "@effectively-once/pipeline/settings";
import type { PipelineHandlerOptions } from "@effectively-once/functions";
import type { PipelineDomain } from "@effectively-once/pipeline/settings";
import { EFFECTS_TABLE_ENV } from "@effectively-once/contract";
import { loadStackExport } from "@effectively-once/local-cloud/stack";
import { PAYMENTS_RULES, type OracleFieldRule, type OracleRules } from "./oracle/rules";
import type { MessageAttribute } from "./scenario/shape";
import { renderPipelineDefinition, type PipelineDefinitionParams } from "@effectively-once/statemachines";
import { CompiledDefinition } from "@effectively-once/local-cloud/emulators";
import { domainKey, domainProps, filterPasses, payloadRecord, type SimDomain } from "./domain/space";
import { domainHandlerOptions } from "./domain/effect";
import { modelKeyTerms } from "./domain/key-terms";
import { sourceQueueMaxBytes } from "@effectively-once/contract";
import { FIFO_SUFFIX, QUARANTINE_MARKERS } from "@effectively-once/contract";
import type { ConstructMutation } from "./mutants/mutant";

/** The simulated queues' names: in FIFO mode they end in `.fifo`, as SQS requires (and `ops` reads). */
export interface SimQueues {
  readonly queueUrl: string;
  readonly queueArn: string;
  readonly dlqUrl: string;
  readonly dlqArn: string;
}

export function simQueues(fifo: boolean): SimQueues {
  const suffix = fifo ? FIFO_SUFFIX : "";
  return {
    queueUrl: `http://sqs.sim/000000000000/sim-queue${suffix}`,
    queueArn: `arn:aws:sqs:us-east-1:000000000000:sim-queue${suffix}`,
    dlqUrl: `http://sqs.sim/000000000000/sim-dlq${suffix}`,
    dlqArn: `arn:aws:sqs:us-east-1:000000000000:sim-dlq${suffix}`,
  };
}

export const SIM_NAMES = {
  partition: "aws",
  region: "us-east-1",
  account: "000000000000",
  ledger: "sim-ledger",
  idempotency: "sim-idempotency",
  effects: "sim-effects",
  functionName: "sim-charge",
  /** The standard queues' names (FIFO mode's: `simQueues(true)`, in SimSettings.queues). */
  ...simQueues(false),
  stateMachineArn: "arn:aws:states:us-east-1:000000000000:stateMachine:sim-workflow",
  /**
   * SenderId of each principal that sends to the queues, as SQS reports it (a role session is `roleId:session`, a
   * user its id): the producer, the state machine's role (quarantine copies), the operator (redriven copies), and
   * the pipe's role (which sends nothing).
   */
  senders: { producer: "AROASIMPRODUCERROLE01:producer", stateMachine: "AROASIMWORKFLOWROLE01:sim-workflow", operator: "AIDASIMOPERATORUSER01", pipe: "AROASIMPIPEROLE000001:pipe" },
} as const;

export interface SimSettings {
  readonly props: ResolvedPipelineProps;
  /** The queues' names under these props (`.fifo` in FIFO mode). */
  readonly queues: SimQueues;
  /** The model's rules: the stack's declared field rules and limits, read by the model's own evaluator. */
  readonly rules: OracleRules;
  readonly definition: Record<string, unknown>;
  /** The definition compiled once: every run's machine shares it. */
  readonly compiled: CompiledDefinition;
  readonly params: PipelineDefinitionParams;
  readonly functionEnvironment: Record<string, string>;
  /** The app's handler options (its side effect), run in process by `function/downstream.ts`. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any payload, result and resources
  readonly handlerOptions: () => Promise<PipelineHandlerOptions<any, any, any>>;
  /** What the construct writes beside the definition, left out by a mutant (mutants/redrive-path.ts); absent: all of it. */
  readonly construct?: ConstructMutation;
}


/** The app the simulation runs: the model (oracle/model.ts, scenario/generator.ts) is written for its messages. */
const SIM_APP = "payments";

/**
 * What an app the simulation targets exports beside `app` (`examples/<name>/stack.ts` → `simulation`): the domain
 * its stack hands the pipeline and the handler options its function file wraps, run in process instead of the
 * deployed bundle. The simulation owns this shape; the published `PipelineApp` knows nothing of it.
 */
export interface AppSimulation {
  readonly domain: PipelineDomain;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any payload, result and resources
  handlerOptions(): Promise<PipelineHandlerOptions<any, any, any>>;
}

function loadSimulation(): AppSimulation {
  // Read from the light module the stack re-exports it from, when the app has one: cdktf and the construct stay unloaded.
  return loadStackExport<AppSimulation>("simulation", `the simulation's hook { domain, handlerOptions }: the ${SIM_APP} app must export it for the simulation to run it`, SIM_APP, "simulation");
}

/** Props the simulation may set (scenario/settings-space.ts draws them); the function's timeout is the only function prop. */
export type PropsOverrides = Partial<Omit<IdempotentPipelineProps, "namePrefix" | "function">> & {
  readonly function?: { readonly timeoutSeconds?: number };
};

let simulation: AppSimulation | undefined;

/**
 * The construct's own resolution of the simulated stack's props (defaults included), unchecked: the app's domain, or
 * a drawn one (domain/space.ts).
 */
export function simProps(overrides: PropsOverrides = {}, domain?: SimDomain): ResolvedPipelineProps {
  simulation ??= loadSimulation();
  // The overrides' own `function` is replaced below (a rest copy without it would cost as much as the resolution).
  return resolveProps({
    namePrefix: "sim",
    ...(domain ? domainProps(domain) : simulation.domain),
    ...overrides,
    function: { name: "charge", entry: "(in process)", permanentErrors: PERMANENT_ERROR_NAMES, conflictErrors: CONFLICT_ERROR_NAMES, ...overrides.function },
  } as IdempotentPipelineProps);
}

export function simSettings(overrides: PropsOverrides = {}, render: (p: PipelineDefinitionParams) => Record<string, unknown> = renderPipelineDefinition, domain?: SimDomain): SimSettings {
  simulation ??= loadSimulation();
  const props = simProps(overrides, domain);
  const queues = simQueues(props.fifo);
  const params: PipelineDefinitionParams = definitionParams(props, {
    partition: SIM_NAMES.partition,
    ledgerTableName: SIM_NAMES.ledger,
    functionArn: `arn:aws:lambda:${SIM_NAMES.region}:${SIM_NAMES.account}:function:${SIM_NAMES.functionName}`,
    deadLetterQueueUrl: queues.dlqUrl,
  });
  const functionEnvironment: Record<string, string> = {
    // As deployed (the second layer's ids included), then what the app's stack and Lambda would add.
    ...functionVariables(props, SIM_NAMES.idempotency),
    [EFFECTS_TABLE_ENV]: SIM_NAMES.effects,
    [ContractEnv.LogLevel]: "SILENT",
    AWS_LAMBDA_FUNCTION_NAME: SIM_NAMES.functionName,
    AWS_REGION: SIM_NAMES.region,
  };
  const definition = render(params);
  const handlerOptions = domain ? async () => domainHandlerOptions(domain) : simulation.handlerOptions;
  return { props, queues, rules: oracleRules(props, domain), definition, compiled: compiledOf(definition, render), params, functionEnvironment, handlerOptions };
}

/**
 * Settings that render the same definition share one compiled machine (most drawn props are the queue's and the
 * pipe's, not the definition's), and so one warm-up run (run.ts). Only the project's renderer is cached: a mutant's
 * render is compiled for itself.
 */
const compiledByText = new Map<string, CompiledDefinition>();
function compiledOf(definition: Record<string, unknown>, render: unknown): CompiledDefinition {
  if (render !== renderPipelineDefinition) return CompiledDefinition.of(definition);
  const text = JSON.stringify(definition);
  let compiled = compiledByText.get(text);
  if (!compiled) {
    if (compiledByText.size >= 256) compiledByText.clear();
    compiledByText.set(text, (compiled = CompiledDefinition.of(definition)));
  }
  return compiled;
}

/** Canonical text of a set of overrides (keys sorted at every depth): equal settings, equal key. */
export function settingsKey(overrides: PropsOverrides): string {
  const sorted = (v: unknown): unknown =>
    v !== null && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, x]) => [k, sorted(x)]))
      : v;
  return JSON.stringify(sorted(overrides));
}

/** One SimSettings per distinct overrides and domain (by canonical key), so a search renders and checks each once. */
const byKey = new Map<string, SimSettings>();
export function settingsFor(overrides: PropsOverrides, domain?: SimDomain): SimSettings {
  const key = `${settingsKey(overrides)}|${domainKey(domain)}`;
  let settings = byKey.get(key);
  if (!settings) {
    if (byKey.size >= 256) byKey.clear();
    byKey.set(key, (settings = simSettings(overrides, renderPipelineDefinition, domain)));
  }
  return settings;
}

/**
 * The declaration (data) the model evaluates; the pipeline's own evaluators are not used. A drawn domain brings its
 * own refusal, its filter (read by the model's own evaluator) and how its generic effect records a payload.
 */
function oracleRules(props: ResolvedPipelineProps, domain?: SimDomain): OracleRules {
  // Keyed by field names: no prototype, so no name reaches Object.prototype.
  const fields: Record<string, OracleFieldRule> = Object.create(null);
  for (const [field, rule] of Object.entries(props.fieldRules)) {
    if (rule.type !== "string" && rule.type !== "integer" && rule.type !== "string-or-integer") throw new Error(`simulation model: field rule type ${rule.type} (${field}) is not modelled`);
    fields[field] = rule as OracleFieldRule;
  }
  const base: OracleRules = { ...PAYMENTS_RULES, keyParts: props.businessKey.requiredFields, payloadFields: props.payloadFields, fields, maxMessageBytes: sourceQueueMaxBytes(props.maxMessageBytes) };
  if (!domain) return base;
  const filter = domain.filter;
  return {
    ...base,
    keyTerms: modelKeyTerms(domain),
    downstreamRefuses: domain.refuses,
    // The construct's own pattern beside the stack's: a message carrying every quarantine marker passes (pipeFilterPatterns).
    ...(filter ? { passes: (body: string, attributes?: readonly MessageAttribute[]) => QUARANTINE_MARKERS.every((name) => (attributes ?? []).some((a) => a.name === name)) || filterPasses(filter, body, attributes) } : {}),
    chargeOf: (body) => ({ amount: payloadRecord(props.payloadFields, body), currency: undefined }),
  };
}
