import { existsSync } from "node:fs";
import { ContractEnv, EFFECTS_TABLE_ENV, OutputName } from "@effectively-once/contract";
import { readStack, StackJsonError, type BlocksByType, type SynthesizedStack } from "@effectively-once/local-cloud/terraform-json";
import { StackConfigError } from "./errors";
import { Architecture, StateMachineLogLevel, type DeployedConfig, type TableConfig } from "./types";

type Body = Record<string, unknown>;

/**
 * Reads the values the cost model needs from a synthesized stack file (`cdktf.out/stacks/<stack>/cdk.tf.json`), through
 * the one reader of that file (the local cloud's terraform-json). Absent attributes take Terraform's defaults.
 */
export function readStackFile(path: string): DeployedConfig {
  if (!existsSync(path)) throw new StackConfigError(`no synthesized stack at ${path}: synthesize it first (e.g. npx cdktf synth), or leave out --stack-file`);
  let stack: SynthesizedStack;
  try {
    stack = readStack(path);
  } catch (error) {
    if (error instanceof StackJsonError) throw new StackConfigError(error.message, { cause: error });
    throw error;
  }
  return deployedConfigFrom(stack);
}

/** The same, from the read stack. Table roles are told apart by the names in the function's environment. */
function deployedConfigFrom(stack: SynthesizedStack): DeployedConfig {
  const { resources, source } = stack;
  const pipe = single(resources, "aws_pipes_pipe", source);
  const machine = single(resources, "aws_sfn_state_machine", source);
  const fn = single(resources, "aws_lambda_function", source);
  const region = (stack.providers.aws?.[0]?.region as string | undefined) ?? "us-east-1";

  const sqsParams = (pipe.source_parameters as Body | undefined)?.sqs_queue_parameters as Body | undefined;
  const filters = ((pipe.source_parameters as Body | undefined)?.filter_criteria as Body | undefined)?.filter as unknown[] | undefined;
  const definitionText = stringField(machine, "definition", source);
  let definition: Body;
  try {
    definition = JSON.parse(definitionText) as Body;
  } catch (error) {
    throw new StackConfigError(`${source}: the state machine definition is not JSON (${(error as Error).message})`, { cause: error });
  }
  const logging = (machine.logging_configuration as Body | undefined) ?? {};
  const env = ((fn.environment as Body | undefined)?.variables as Record<string, string> | undefined) ?? {};
  const fnLogging = (fn.logging_config as Body | undefined) ?? {};
  const architecture = ((fn.architectures as string[] | undefined) ?? ["x86_64"])[0];
  if (architecture !== Architecture.Arm64 && architecture !== Architecture.X86_64) {
    throw new StackConfigError(`${source}: aws_lambda_function.architectures = ${JSON.stringify(fn.architectures)} is neither arm64 nor x86_64`);
  }
  const logLevel = String(logging.level ?? "OFF");
  if (!Object.values(StateMachineLogLevel).includes(logLevel as StateMachineLogLevel)) {
    throw new StackConfigError(`${source}: state machine logging level "${logLevel}" is not ALL, ERROR, FATAL or OFF`);
  }
  const batchSize = Number(sqsParams?.batch_size ?? 10);
  const retentionSeconds = Number(env[ContractEnv.ExpiresAfterSeconds]);
  if (!(retentionSeconds > 0)) {
    throw new StackConfigError(`${source}: the function has no ${ContractEnv.ExpiresAfterSeconds} (the ledger retention the storage line needs)`);
  }

  const queues = Object.values(resources.aws_sqs_queue ?? {});
  return {
    source,
    region,
    ...(queues.some((q) => q.fifo_queue === true) ? { fifo: true } : {}),
    pipe: {
      batchSize,
      maximumBatchingWindowSeconds: Number(sqsParams?.maximum_batching_window_in_seconds ?? 0),
      filterPatterns: filters?.length ?? 0,
    },
    stateMachine: {
      type: String(machine.type ?? "STANDARD"),
      // FIFO: a group's records run one after another, and a batch may hold one group: priced at its longest.
      maxConcurrency: queues.some((q) => q.fifo_queue === true) ? 1 : mapConcurrency(definition, batchSize),
      logLevel: logLevel as StateMachineLogLevel,
      includeExecutionData: logging.include_execution_data === true,
      tracing: (machine.tracing_configuration as Body | undefined)?.enabled === true,
      definitionBytes: Buffer.byteLength(definitionText),
      ...((definition as Body).States !== undefined && ((definition as Body).States as Body).InvokeBatch !== undefined ? { batchInvocation: true as const } : {}),
    },
    function: {
      name: stringField(fn, "function_name", source),
      memoryMb: Number(fn.memory_size ?? 128),
      architecture,
      timeoutSeconds: Number(fn.timeout ?? 3),
      applicationLogLevel: String(fnLogging.application_log_level ?? env[ContractEnv.LogLevel] ?? "INFO"),
      systemLogLevel: String(fnLogging.system_log_level ?? "INFO"),
      logFormat: String(fnLogging.log_format ?? "Text"),
      tracing: (fn.tracing_config as Body | undefined)?.mode === "Active",
    },
    retentionSeconds,
    tables: tableRoles(resources, env, String(stack.outputs[OutputName.LedgerTable]?.value ?? ""), source),
    alarms: Object.keys(resources.aws_cloudwatch_metric_alarm ?? {}).length,
    alarmMetrics: Object.values(resources.aws_cloudwatch_metric_alarm ?? {}).reduce((n, alarm) => n + alarmMetricCount(alarm as Body), 0),
    customMetrics: Object.keys(resources.aws_cloudwatch_log_metric_filter ?? {}).length,
    scheduleRunsPerMonth: Object.values(resources.aws_scheduler_schedule ?? {}).reduce((n, s) => n + runsPerMonth(String((s as Body).schedule_expression), source), 0),
    dashboards: Object.keys(resources.aws_cloudwatch_dashboard ?? {}).length,
  };
}

/** The metrics one alarm reads: one, or each `metric` of its `metric_query` (expressions are free). */
function alarmMetricCount(alarm: Body): number {
  const queries = alarm.metric_query as Body[] | undefined;
  return Array.isArray(queries) ? queries.filter((q) => q.metric !== undefined).length : 1;
}

/** A `rate(n unit)` schedule's runs in a month of 730 hours. */
function runsPerMonth(expression: string, source: string): number {
  const rate = /^rate\((\d+) (minute|hour|day)s?\)$/.exec(expression);
  if (!rate) throw new StackConfigError(`${source}: schedule_expression ${expression} is not a rate(); the cost model prices rate schedules only`);
  const hours = { minute: 1 / 60, hour: 1, day: 24 }[rate[2] as "minute" | "hour" | "day"] * Number(rate[1]);
  return 730 / hours;
}

function single(resources: BlocksByType, type: string, source: string): Body {
  const bodies = Object.values(resources[type] ?? {});
  if (bodies.length !== 1) throw new StackConfigError(`${source}: expected one ${type}, found ${bodies.length}; the cost model prices one pipeline per stack`);
  return bodies[0] as Body;
}

function stringField(body: Body, field: string, source: string): string {
  const value = body[field];
  if (typeof value !== "string") throw new StackConfigError(`${source}: ${field} is missing or not a string`);
  return value;
}

/** The Map state's MaxConcurrency (0 in ASL means unlimited, i.e. the whole batch at once). */
function mapConcurrency(definition: Body, batchSize: number): number {
  for (const state of Object.values((definition.States as Record<string, Body> | undefined) ?? {})) {
    if (state.Type === "Map") {
      const value = Number(state.MaxConcurrency ?? 0);
      return value > 0 ? value : batchSize;
    }
  }
  return batchSize;
}

/**
 * Ledger = the table the stack's `ledger_table_name` output names (else the one that is neither the idempotency nor the
 * effects table); idempotency and effects = the tables the function's environment names. Other tables (the team's
 * own) are left out.
 */
function tableRoles(resources: BlocksByType, env: Record<string, string>, ledgerOutput: string, source: string): DeployedConfig["tables"] {
  const tables = Object.entries(resources.aws_dynamodb_table ?? {});
  const byRef = (value: string | undefined): [string, Body] | undefined =>
    tables.find(([id, body]) => value !== undefined && (value.includes(`aws_dynamodb_table.${id}.`) || value === body.name));
  const idempotency = byRef(env[ContractEnv.IdempotencyTableName]);
  const effects = byRef(env[EFFECTS_TABLE_ENV]);
  const named = ledgerOutput ? byRef(ledgerOutput) : undefined;
  const ledger = named ?? tables.find(([id]) => id !== idempotency?.[0] && id !== effects?.[0]);
  // No effects table: the function's downstream is not an EffectJournalTable (an HTTP API, another store).
  if (!idempotency || !ledger || (!effects && !named && tables.length !== 2)) {
    throw new StackConfigError(`${source}: cannot tell the ledger, idempotency and effects tables apart (found ${tables.length} aws_dynamodb_table)`);
  }
  const describe = ([, body]: [string, Body]): TableConfig => ({
    name: String(body.name),
    billingMode: String(body.billing_mode ?? "PROVISIONED"),
    pointInTimeRecovery: (body.point_in_time_recovery as Body | undefined)?.enabled === true,
  });
  return { ledger: describe(ledger), idempotency: describe(idempotency), ...(effects ? { effects: describe(effects) } : {}) };
}
