import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { availableParallelism } from "node:os";
import { DynamoPlacement, startDynamo, startDynamoFaultProxy, startTtlSweeper, type DynamoFaultProxy, type LocalDynamo, type TtlSweeper } from "../dynamodb";
import { createFaultPlan, type FaultPlan, type FaultPlanSpec } from "../faults";
import { JsonProtocolClient } from "../json-protocol";
import { createLambdaRunner, type LambdaRunner } from "../lambda";
import { createPipeRunner, type PipeRunner } from "../pipes";
import { loadStackFile, localRoleUniqueId, provisionStack, ProvisionError, roleNameOfArn, type ProvisionedStack } from "../provision";
import { LOCAL_CREDENTIALS } from "@effectively-once/contract";
import { createSqsClient, startSqs, type LocalSqs } from "../sqs";
import { createStateMachine, type ExecutionResult, type StateMachine } from "../stepfunctions";
import { loggedMachine, runWithText } from "./logged-machine";
import { startStepFunctionsEndpoint } from "../stepfunctions-api";
import { emfDatapoints, ExecutionLogs, logGroupNameOf, startLogsEndpoint } from "../logs";
import { startLambdaApiEndpoint } from "../lambda-api";
import { mocksFor } from "./mocks";
import { sharedClock } from "../clock";
import { countOutcome, emptyCounts, recordOutcomes } from "./outcomes";
import type { CloudEvent, LocalCloud, LocalCloudOptions } from "./types";
import { withEarlyVisibilityExpiry } from "./visibility-faults";
import { SyncExpressLimit } from "./sync-express-limit";
import { workflowTarget } from "./workflow-target";
import { countedInvoke, countExecution, createLocalAlarms, logFilterCounter, MetricStore, pipeMetricsListener, startCloudWatchEndpoint } from "../alarms";
import type { LambdaLogs } from "../lambda";

/** The account of a state machine ARN (`arn:aws:states:<region>:<account>:stateMachine:<name>`). */
function accountOf(arn: string | undefined): string | undefined {
  return arn?.split(":")[4] || undefined;
}

function isPlan(faults: FaultPlanSpec | FaultPlan): faults is FaultPlan {
  return typeof (faults as FaultPlan).report === "function";
}

/** Things to stop, newest first, even when start-up fails half-way. */
class Teardown {
  private readonly stops: (() => Promise<void> | void)[] = [];
  push(stop: () => Promise<void> | void): void {
    this.stops.unshift(stop);
  }
  async unwind(): Promise<void> {
    for (const stop of this.stops.splice(0)) await Promise.resolve(stop()).catch(() => undefined);
  }
}

/**
 * Boots the local cloud from a synthesized stack: SQS (fauxqs) and DynamoDB (dynalite) on 127.0.0.1, the
 * stack's queues and tables, its functions in worker threads, its state machines on the interpreter and its
 * pipes polling the queues. Every server binds 127.0.0.1 on a free port.
 */
export async function startLocalCloud(options: LocalCloudOptions): Promise<LocalCloud> {
  const stack = loadStackFile(options.stackFile);
  // Installed on this thread before anything reads the time; the worker threads install the same offset.
  const clock = sharedClock();
  const cleanup = new Teardown();
  try {
    const [sqsServer, dynamo]: [LocalSqs, LocalDynamo] = await Promise.all([
      startSqs(),
      // Its own thread by default: measured faster end to end once the host's event loop also runs the
      // interpreter and the pipes (see docs/performance.md); a single client alone is faster in process.
      startDynamo({ placement: options.dynamoPlacement ?? DynamoPlacement.Worker }),
    ]);
    cleanup.push(() => sqsServer.stop());
    cleanup.push(() => dynamo.stop());
    const faults = options.faults ? (isPlan(options.faults) ? options.faults : createFaultPlan(options.faults)) : undefined;
    // The proxy sits in front of dynalite only when faults are planned: it costs a hop per request.
    let proxy: DynamoFaultProxy | undefined;
    if (faults) {
      proxy = await startDynamoFaultProxy({ target: dynamo.endpoint, faults });
      cleanup.push(() => proxy!.stop());
    }
    const region = stack.region;
    const sqs = createSqsClient(sqsServer.endpoint, { region });
    const dynamodb = new DynamoDBClient({ endpoint: dynamo.endpoint, region, credentials: LOCAL_CREDENTIALS });
    cleanup.push(() => sqs.destroy());
    cleanup.push(() => dynamodb.destroy());

    const provisioned = await provisionStack(stack, { sqs, dynamodb });

    // CloudWatch, locally: every service below publishes here; the alarms read it (alarms/README.md).
    const metrics = new MetricStore();
    const filterLine = logFilterCounter(metrics, provisioned.monitoring.metricFilters);
    // CloudWatch extracts EMF from a function's log lines and from PutLogEvents alike: both feed the metric store.
    const putEmf = (message: string) => {
      if (!message.includes('"_aws"')) return;
      for (const point of emfDatapoints(message)) metrics.put(point);
    };
    const countLine = (functionName: string, line: string) => (filterLine?.(functionName, line), putEmf(line));
    const ttlTables = provisioned.tables.filter((t) => t.ttlAttribute).map((t) => ({ tableName: t.name, attributeName: t.ttlAttribute! }));
    const sweeper: TtlSweeper = startTtlSweeper({ client: dynamodb, tables: ttlTables, intervalMs: options.ttlSweepIntervalMs ?? 1000 });
    cleanup.push(() => sweeper.stop());

    const lambda: LambdaRunner = await createLambdaRunner({
      functions: provisioned.functions.map((f) => ({
        name: f.name,
        arn: f.arn,
        bundle: { zipPath: f.zipPath },
        handler: f.handler,
        env: f.environment,
        timeoutSeconds: f.timeoutSeconds, memoryMb: f.memoryMb,
        reservedConcurrency: f.reservedConcurrency,
        applicationLogLevel: f.applicationLogLevel,
      })),
      endpoints: { dynamodb: dynamo.endpoint, sqs: sqsServer.endpoint },
      dynamodbProxy: proxy,
      faults,
      logs: countedLogs(options.functionLogs ?? "silent", countLine),
      region,
      maxEnvironmentsPerFunction: options.maxFunctionEnvironments ?? defaultFunctionEnvironments(),
    });
    cleanup.push(() => lambda.stop());

    // Step Functions' own DynamoDB calls go through the fault proxy too, and without retries: a throttle must reach
    // the state machine's Retry, as it does on AWS. A lean JSON-protocol client: the SDK's per-call CPU was the
    // largest cost of the workflow on the host's event loop.
    const workflowDynamo = new JsonProtocolClient({
      endpoint: proxy?.endpoint ?? dynamo.endpoint,
      region,
      service: "dynamodb",
      targetPrefix: "DynamoDB_20120810",
      credentials: LOCAL_CREDENTIALS,
    });
    cleanup.push(() => workflowDynamo.destroy());
    // Each state machine sends as its role's session, so its messages report that SenderId, as on AWS.
    const roleSqs = (roleArn: string, session: string) => {
      const client = createSqsClient(sqsServer.endpoint, { region, credentials: { accessKeyId: `${localRoleUniqueId(roleNameOfArn(roleArn))}:${session}`, secretAccessKey: "local" } });
      cleanup.push(() => client.destroy());
      return client;
    };
    // Each machine writes its execution logs as its logging_configuration says (read with FilterLogEvents); the
    // workflow's fate metrics arrive by PutLogEvents on the stack's log stream.
    const executionLogs = new ExecutionLogs();
    for (const group of provisioned.logGroups) executionLogs.ensureGroup(group);
    for (const stream of provisioned.logStreams) executionLogs.ensureStream(stream.logGroupName, stream.name);
    const logsEndpoint = await startLogsEndpoint(executionLogs, (events) => events.forEach((e) => putEmf(e.message)));
    cleanup.push(() => logsEndpoint.stop());
    const workflowLogs = new JsonProtocolClient({ endpoint: logsEndpoint.endpoint, region, service: "logs", targetPrefix: "Logs_20140328", credentials: LOCAL_CREDENTIALS });
    cleanup.push(() => workflowLogs.destroy());
    const machines = new Map<string, { machine: StateMachine; type: string }>(
      provisioned.stateMachines.map((m) => {
        const machine = createStateMachine(m.definition, {
          name: m.name,
          arn: m.arn,
          roleArn: m.roleArn,
          type: m.type === "EXPRESS" ? "EXPRESS" : "STANDARD",
          integrations: { dynamodb: workflowDynamo, sqs: roleSqs(m.roleArn, m.name), lambda: countedInvoke(metrics, lambda.invoke), logs: workflowLogs },
          mocks: mocksFor(options.mocks, m.name, provisioned.stateMachines.map((x) => x.name)),
        });
        const group = m.logging && logGroupNameOf(m.logging.logGroupArn);
        const logging = m.logging && group ? { level: m.logging.level, includeExecutionData: m.logging.includeExecutionData, logGroupName: group } : undefined;
        return [m.arn, { type: m.type, machine: logging ? loggedMachine(machine, (text, run) => executionLogs.record(logging, m.name, m.roleArn, text, run)) : machine }];
      }),
    );

    // TestState on the interpreter, for tests and tools; a Task that is not mocked calls this cloud's services.
    const stepFunctions = await startStepFunctionsEndpoint({
      region,
      account: accountOf(provisioned.stateMachines[0]?.arn),
      integrations: { dynamodb: workflowDynamo, sqs, lambda: lambda.invoke, logs: workflowLogs },
      executions: {
        machine(arn) {
          const found = machines.get(arn);
          if (!found) return undefined;
          return { type: found.type, run: (text, input, name) => runWithText(found.machine, text, input, name).then((run) => (onFinished(run), run)) };
        },
      },
    });
    cleanup.push(() => stepFunctions.stop());
    // GetFunctionConfiguration: the functions as deployed here, which `pipeline-ops` reads instead of the outputs.
    const lambdaApi = await startLambdaApiEndpoint(provisioned.functions);
    cleanup.push(() => lambdaApi.stop());

    const listeners = new Set<(event: CloudEvent) => void>();
    const emit = (event: CloudEvent) => listeners.forEach((listener) => listener(event));
    const outcomes = emptyCounts();
    const executions = { started: 0, succeeded: 0, failed: 0, timedOut: 0 };
    const failed: ExecutionResult[] = [];
    const keepFailed = options.keepFailedExecutions ?? 20;
    const onFinished = (run: ExecutionResult) => {
      executions.started += 1;
      countExecution(metrics, run);
      if (run.status === "SUCCEEDED") {
        executions.succeeded += 1;
        for (const event of recordOutcomes(run.events, Date.now())) {
          countOutcome(outcomes, event);
          emit(event);
        }
        return;
      }
      if (run.status === "TIMED_OUT") executions.timedOut += 1;
      else executions.failed += 1;
      failed.push(run);
      if (failed.length > keepFailed) failed.shift();
    };

    const visibility = { expired: 0 };
    // The pipes poll, delete and change visibility through a lean JSON-protocol client: with small batches the
    // SDK's per-call CPU on the host's event loop was a cost per message.
    const pipeClient = new JsonProtocolClient({ endpoint: sqsServer.endpoint, region, service: "sqs", targetPrefix: "AmazonSQS", credentials: LOCAL_CREDENTIALS });
    cleanup.push(() => pipeClient.destroy());
    const pipeSqs = options.expireVisibilityEarly ? withEarlyVisibilityExpiry(pipeClient, options.expireVisibilityEarly, visibility) : pipeClient;
    const pipes = new Map<string, PipeRunner>();
    const countPipe = pipeMetricsListener(metrics);
    // Off by default: without it no start is ever refused, so seeded runs and replays keep their paths.
    const syncLimit = options.limits?.syncExpressConcurrency === undefined ? undefined : new SyncExpressLimit(options.limits.syncExpressConcurrency);
    for (const pipe of provisioned.pipes) {
      const target = machines.get(pipe.targetArn);
      if (!target) throw new ProvisionError(`${pipe.address}: target ${pipe.targetArn} is not a state machine of this stack`);
      const runner = createPipeRunner({
        name: pipe.name,
        sqs: pipeSqs,
        queueUrl: pipe.source.url,
        queueArn: pipe.source.arn,
        region,
        batchSize: pipe.batchSize,
        maximumBatchingWindowInSeconds: pipe.maximumBatchingWindowSeconds,
        filterCriteria: pipe.filterPatterns.length ? { Filters: pipe.filterPatterns.map((Pattern) => ({ Pattern })) } : undefined,
        inputTemplate: pipe.inputTemplate,
        invocationType: pipe.invocationType as never,
        workflowType: target.type as never,
        pipeArn: pipe.arn,
        targetArn: pipe.targetArn,
        // REQUEST_RESPONSE on an EXPRESS machine is StartSyncExecution, the call the limit applies to.
        target: workflowTarget(target.machine, onFinished, pipe.invocationType === "REQUEST_RESPONSE" && target.type === "EXPRESS" ? syncLimit : undefined),
        concurrency: options.pipeConcurrency,
        retryVisibilityTimeoutSeconds: options.retryVisibilityTimeoutSeconds,
        onEvent: (event) => (countPipe(event), emit(event)),
      });
      pipes.set(pipe.name, runner);
      cleanup.push(() => runner.stop({ gracePeriodMs: 5000 }));
    }
    let pipesStarted = false;
    const startPipes = () => {
      if (pipesStarted) return;
      pipesStarted = true;
      for (const [name, runner] of pipes) if (provisionedPipe(provisioned, name)?.desiredState !== "STOPPED") runner.start();
    };
    if (options.startPipes !== false) startPipes();
    const alarms = createLocalAlarms(provisioned.monitoring, { sqsEndpoint: sqsServer.endpoint, sqs, clock, store: metrics });
    // While the cloud runs in real time, CloudWatch's minute: a test moves time with `alarms.advance` instead.
    const ticker = setInterval(() => void alarms.tick().catch(() => undefined), 60_000).unref();
    cleanup.push(() => clearInterval(ticker));
    const cloudwatch = await startCloudWatchEndpoint(alarms, { region, stackArn: provisioned.stateMachines[0]?.arn });
    cleanup.push(() => cloudwatch.stop());

    return {
      region,
      endpoints: { sqs: sqsServer.endpoint, dynamodb: dynamo.endpoint, stepfunctions: stepFunctions.endpoint, logs: logsEndpoint.endpoint, lambda: lambdaApi.endpoint, cloudwatch: cloudwatch.endpoint },
      outputs: provisioned.outputs,
      provisioned,
      clients: { sqs, dynamodb },
      faults,
      clock,
      alarms,
      startPipes,
      subscribe(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      stats: () => ({
        pipes: Object.fromEntries([...pipes].map(([name, runner]) => [name, runner.stats()])),
        outcomes: structuredClone(outcomes),
        functions: lambda.stats().functions,
        executions: { ...executions },
        faults: faults?.report(),
        visibilityExpiredEarly: visibility.expired,
        ttlDeleted: sweeper.stats().deleted,
        dynamodbRequests: dynamo.requests(),
        ...(syncLimit ? { syncExpress: syncLimit.stats() } : {}),
      }),
      drain: async ({ timeoutMs = 60_000 } = {}) => {
        await Promise.all([...pipes.values()].map((runner) => runner.drain({ timeoutMs })));
      },
      sweepTtl: () => sweeper.sweepOnce(),
      failedExecutions: () => failed,
      stop: () => cleanup.unwind(),
    };
  } catch (error) {
    await cleanup.unwind();
    throw error;
  }
}

/**
 * The function logs as asked, each line also counted by the stack's log metric filters and read for EMF ("inherit"
 * lines are not seen).
 */
function countedLogs(logs: LambdaLogs, count: (functionName: string, line: string) => void): LambdaLogs {
  if (logs === "inherit") return logs;
  return (line, meta) => (count(meta.functionName, line), logs === "silent" ? undefined : logs(line, meta));
}

/** Cores + 1: enough environments to keep every core busy while one waits on I/O, few enough to stay warm. */
function defaultFunctionEnvironments(): number {
  return availableParallelism() + 1;
}

function provisionedPipe(provisioned: ProvisionedStack, name: string) {
  return provisioned.pipes.find((p) => p.name === name);
}
