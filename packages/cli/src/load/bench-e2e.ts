import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startLocalCloud, type LocalCloud } from "@effectively-once/local-cloud";
import { peekDlq, readEffects, verify } from "@effectively-once/local-cloud/harness";
import { callsPerMessage, floorRatio, perSecond, requestDelta, summarize, type SampleSummary } from "./bench-math";
import { BenchInvocation, type BenchOptions } from "./bench-options";
import { readCapacitySettings } from "../capacity/settings";
import { measureFloor, startFloorSampler, type FloorResult } from "./bench-floor";
import { startThreadCpu, type ThreadCpu } from "./cpu-profiler";
import { SettleTimeoutError } from "@effectively-once/local-cloud/harness";
import { generateStream } from "@effectively-once/local-cloud/harness";
import { summarizeProfile, type ProfileSummary } from "./profile-summary";
import { publish, type LoadSent } from "@effectively-once/local-cloud/harness";
import { synthLoadStack } from "@effectively-once/local-cloud/stack";
import { loadProfile } from "@effectively-once/local-cloud/stack";
import { streamContractOf } from "@effectively-once/local-cloud/stack";
import { startThreadProfiles, ThreadKind, type ThreadProfile } from "./thread-profiler";
import { summarizeThreads, type ThreadKindSummary } from "./thread-summary";
import { OutputName } from "@effectively-once/contract";

/** One measured run through the whole pipeline (one sample, or all samples of a case added up). */
export interface E2eRun {
  readonly messages: number;
  readonly ms: number;
  readonly throughput: number;
  /** dynalite requests during the run, per operation. */
  readonly dynamoCalls: Record<string, number>;
  readonly dynamoCallsPerMessage: number;
  /** The function's invocations during the run (one per claimed record, or one per batch with `batchInvocation`). */
  readonly functionInvocations: number;
  /** Their durations added up, as the local cloud measures them (Lambda's REPORT Duration: the handler's run, init excluded). */
  readonly functionMs: number;
  readonly cpu: ThreadCpu;
  readonly lost: number;
  readonly doubleApplied: number;
}

/** One round: a pipeline sample between two storage-floor samples on the same emulators. */
export interface BenchRound {
  /** Conditional PutItem ops/s at the floor's concurrency: the mean of the samples just before and just after. */
  readonly floorOpsPerSecond: number;
  readonly run: E2eRun;
  /** DynamoDB ops/s the pipeline drove in this round's sample over this round's floor. */
  readonly ratio: number;
}

export interface E2eCaseResult {
  readonly batchSize: number;
  /** The synthesized stack invokes the function once per batch (its definition has `InvokeBatch`), not once per record. */
  readonly batchInvocation: boolean;
  /** The one-off full floor (sequential and concurrent PutItem, SQS), measured before the pipes poll. */
  readonly floor: FloorResult;
  /** From the first warm-up send to the first record outcome: boot of the Lambda environments included. */
  readonly coldStartMs: number;
  /** Every pipeline sample added up: messages, time, calls, CPU, lost / double-applied. */
  readonly run: E2eRun;
  /** The alternating rounds, in order. */
  readonly rounds: readonly BenchRound[];
  /** The median of the rounds' ratios: the figure the CI smoke holds against the committed one. */
  readonly floorRatio: number;
  /** Per-round ratios, their median and spread. */
  readonly ratio: SampleSummary;
  /** Per-round end-to-end msg/s. */
  readonly throughput: SampleSummary;
  /** Per-round floor samples (ops/s). */
  readonly floorSamples: SampleSummary;
  readonly profile?: {
    /** The main thread's profile (functions, files, owners). */
    readonly main: ProfileSummary;
    /** CPU per kind of thread (main, Lambda environments, fauxqs, …) split by owner module. */
    readonly threads: readonly ThreadKindSummary[];
    readonly cpu: ThreadCpu;
    readonly messages: number;
  };
}

/** One `.cpuprofile` file per thread, named after the case and the thread. */
function writeProfiles(dir: string, prefix: string, threads: readonly ThreadProfile[]): void {
  mkdirSync(dir, { recursive: true });
  threads.forEach((thread, i) => {
    const name = `${prefix}-${i}-${thread.kind.replace(/[^a-z0-9]+/gi, "-").replace(/-+$/, "")}.cpuprofile`;
    writeFileSync(join(dir, name), JSON.stringify(thread.profile));
  });
}

/** Publishes a stream with back-pressure and waits until the pipeline settles; returns what was sent. */
async function pushThrough(cloud: LocalCloud, options: BenchOptions, messages: number, runId: string, duplicateRatio: number): Promise<LoadSent[]> {
  const stream = await generateStream(loadProfile(options.app, options.messageProfile), streamContractOf(cloud.outputs), { messages, duplicateRatio, seed: `${options.seed}:${runId}`, runId });
  const sent = await publish({ sqs: cloud.clients.sqs, queueUrl: cloud.outputs[OutputName.QueueUrl] as string, messages: stream, maxBacklog: options.maxBacklog, ratePerSecond: 0 });
  await cloud.drain({ timeoutMs: options.settleTimeoutSeconds * 1000 }).catch((error: unknown) => {
    throw new SettleTimeoutError(`run ${runId} did not settle within ${options.settleTimeoutSeconds} s: ${(error as Error).message}`, { cause: error });
  });
  return sent;
}

/** One pipeline sample: a fresh stream pushed through, timed, its DynamoDB calls counted and its keys checked. */
async function measuredRun(live: LocalCloud, options: BenchOptions, runId: string): Promise<E2eRun> {
  const requestsBefore = live.stats().dynamodbRequests;
  const functionsBefore = functionTotals(live);
  const cpu = startThreadCpu();
  const started = Date.now();
  const sent = await pushThrough(live, options, options.messages, runId, options.duplicateRatio);
  const ms = Date.now() - started;
  const threadCpu = cpu.stop();
  const dynamoCalls = requestDelta(live.stats().dynamodbRequests, requestsBefore);
  const functionsAfter = functionTotals(live);
  const [effects, dlq] = await Promise.all([
    readEffects(live.clients.dynamodb, live.outputs[OutputName.EffectsTable] as string),
    peekDlq(live.clients.sqs, live.outputs[OutputName.DlqUrl] as string),
  ]);
  const verification = verify(sent, effects, dlq);
  return {
    messages: options.messages,
    ms,
    throughput: perSecond(options.messages, ms),
    dynamoCalls,
    dynamoCallsPerMessage: callsPerMessage(dynamoCalls, options.messages),
    functionInvocations: functionsAfter.invocations - functionsBefore.invocations,
    functionMs: functionsAfter.durationMs - functionsBefore.durationMs,
    cpu: threadCpu,
    lost: verification.lost.length,
    doubleApplied: verification.doubleApplied.length,
  };
}

/** The stack's functions' invocations and their durations so far (the load stacks have one function). */
function functionTotals(live: LocalCloud): { readonly invocations: number; readonly durationMs: number } {
  const all = Object.values(live.stats().functions);
  return { invocations: all.reduce((n, f) => n + f.invocations, 0), durationMs: all.reduce((n, f) => n + f.durationMs, 0) };
}

/** The samples of a case as one run: counts and times added, rates recomputed from the sums. */
export function addRuns(runs: readonly E2eRun[]): E2eRun {
  const sum = (f: (r: E2eRun) => number) => runs.reduce((a, r) => a + f(r), 0);
  const messages = sum((r) => r.messages);
  const ms = sum((r) => r.ms);
  const dynamoCalls: Record<string, number> = {};
  for (const r of runs) for (const [op, n] of Object.entries(r.dynamoCalls)) dynamoCalls[op] = (dynamoCalls[op] ?? 0) + n;
  return {
    messages,
    ms,
    throughput: perSecond(messages, ms),
    dynamoCalls,
    dynamoCallsPerMessage: callsPerMessage(dynamoCalls, messages),
    functionInvocations: sum((r) => r.functionInvocations),
    functionMs: sum((r) => r.functionMs),
    cpu: {
      wallMs: sum((r) => r.cpu.wallMs),
      processCpuMs: sum((r) => r.cpu.processCpuMs),
      mainCpuMs: sum((r) => r.cpu.mainCpuMs),
      mainWaitMs: sum((r) => r.cpu.mainWaitMs),
      otherThreadsMs: sum((r) => r.cpu.otherThreadsMs),
    },
    lost: sum((r) => r.lost),
    doubleApplied: sum((r) => r.doubleApplied),
  };
}

/**
 * One batch size: boots the stack on a fresh local cloud, measures the full storage floor on its emulators (pipes
 * not yet polling), warms the functions up, then alternates floor samples and pipeline samples (so a machine that
 * gets busier or quieter meanwhile moves both alike) and, optionally, profiles one more run.
 */
export async function runE2eCase(batchSize: number, options: BenchOptions, note: (line: string) => void = () => undefined): Promise<E2eCaseResult> {
  const mode = options.invocation === undefined ? {} : { batchInvocation: options.invocation === BenchInvocation.PerBatch };
  const stack = synthLoadStack({ stackName: `bench-b${batchSize}`, region: "us-east-1", namePrefix: `bench${batchSize}` }, { batchSize, ...mode }, options.app);
  const batchInvocation = readCapacitySettings(stack.stackFile).batchInvocation === true;
  let cloud: LocalCloud | undefined;
  try {
    cloud = await startLocalCloud({
      stackFile: stack.stackFile,
      startPipes: false,
      retryVisibilityTimeoutSeconds: 1,
      pipeConcurrency: options.pipeConcurrency,
      ttlSweepIntervalMs: 0,
      dynamoPlacement: options.dynamoPlacement,
    });
    const live = cloud;
    note(`batch ${batchSize}: storage floor (${options.floorSeconds} s per measurement)`);
    const floor = await measureFloor({ dynamodb: live.clients.dynamodb, sqs: live.clients.sqs, seconds: options.floorSeconds, concurrency: options.floorConcurrency, prefix: "bench" });

    note(`batch ${batchSize}: warm-up (${options.warmupMessages} messages)`);
    const warmStart = Date.now();
    let firstOutcome = 0;
    const unsubscribe = live.subscribe((event) => {
      if (event.type === "record-outcome" && firstOutcome === 0) firstOutcome = Date.now();
    });
    live.startPipes();
    await pushThrough(live, options, Math.max(1, options.warmupMessages), "warmup", 0);
    unsubscribe();

    note(`batch ${batchSize}: ${options.rounds} rounds of a ${options.floorSeconds} s floor sample and a ${options.messages}-message pipeline sample (${options.duplicateRatio * 100}% duplicates)`);
    const sampler = await startFloorSampler({ dynamodb: live.clients.dynamodb, sqs: live.clients.sqs, seconds: options.floorSeconds, concurrency: options.floorConcurrency, prefix: "bench-sample" });
    const rounds: BenchRound[] = [];
    try {
      // floor, pipeline, floor, pipeline, …, floor: each pipeline sample is held against the mean of the floor
      // samples on either side of it, so a machine that gets busier or quieter during a round moves both alike.
      let floorBefore = await sampler.sample();
      for (let round = 1; round <= options.rounds; round++) {
        const run = await measuredRun(live, options, `measured-${round}`);
        const floorAfter = await sampler.sample();
        const floorOpsPerSecond = (floorBefore + floorAfter) / 2;
        const ratio = floorRatio(run.throughput, run.dynamoCallsPerMessage, floorOpsPerSecond);
        rounds.push({ floorOpsPerSecond, run, ratio });
        note(
          `batch ${batchSize}: round ${round}/${options.rounds}: floor ${Math.round(floorBefore)}/${Math.round(floorAfter)} ops/s, ` +
            `pipeline ${run.throughput.toFixed(1)} msg/s × ${run.dynamoCallsPerMessage.toFixed(2)} calls, ratio ${ratio.toFixed(3)}`,
        );
        floorBefore = floorAfter;
      }
    } finally {
      await sampler.stop();
    }
    const run = addRuns(rounds.map((r) => r.run));

    let profile: E2eCaseResult["profile"];
    if (options.profileMessages > 0) {
      note(`batch ${batchSize}: profiled run (${options.profileMessages} messages)`);
      const profiler = await startThreadProfiles();
      const profileCpu = startThreadCpu();
      try {
        await pushThrough(live, options, options.profileMessages, "profiled", options.duplicateRatio);
      } finally {
        const cpu = profileCpu.stop();
        const threads = await profiler.stop();
        if (options.profileDir) writeProfiles(options.profileDir, `batch${batchSize}`, threads);
        const main = threads.find((t) => t.kind === ThreadKind.Main);
        if (main) profile = { main: summarizeProfile(main.profile), threads: summarizeThreads(threads), cpu, messages: options.profileMessages };
      }
    }
    const ratio = summarize(rounds.map((r) => r.ratio));
    return {
      batchSize,
      batchInvocation,
      floor,
      coldStartMs: firstOutcome > 0 ? firstOutcome - warmStart : 0,
      run,
      rounds,
      floorRatio: ratio.median,
      ratio,
      throughput: summarize(rounds.map((r) => r.run.throughput)),
      floorSamples: summarize(rounds.map((r) => r.floorOpsPerSecond)),
      profile,
    };
  } finally {
    await cloud?.stop();
    stack.cleanup();
  }
}
