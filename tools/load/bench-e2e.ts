import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startLocalCloud, type LocalCloud } from "../../packages/local-cloud/src/cloud";
import { peekDlq, readEffects, verify } from "../../packages/local-cloud/src/observe";
import { callsPerMessage, floorRatio, perSecond, requestDelta } from "./bench-math";
import type { BenchOptions } from "./bench-options";
import { measureFloor, type FloorResult } from "./bench-floor";
import { startThreadCpu, type ThreadCpu } from "./cpu-profiler";
import { SettleTimeoutError } from "../../packages/local-cloud/src/soak/errors";
import { generateStream } from "../../packages/local-cloud/src/soak/generator";
import { summarizeProfile, type ProfileSummary } from "./profile-summary";
import { publish, type LoadSent } from "../../packages/local-cloud/src/soak/publisher";
import { synthLoadStack } from "../../packages/local-cloud/src/soak/stack";
import { loadProfile } from "../../packages/local-cloud/src/stack/apps";
import { streamContractOf } from "../../packages/local-cloud/src/stack/contract";
import { startThreadProfiles, ThreadKind, type ThreadProfile } from "./thread-profiler";
import { summarizeThreads, type ThreadKindSummary } from "./thread-summary";
import { OutputName } from "../../packages/pipeline/src/contract/outputs";

/** One measured run through the whole pipeline. */
export interface E2eRun {
  readonly messages: number;
  readonly ms: number;
  readonly throughput: number;
  /** dynalite requests during the run, per operation. */
  readonly dynamoCalls: Record<string, number>;
  readonly dynamoCallsPerMessage: number;
  readonly cpu: ThreadCpu;
  readonly lost: number;
  readonly doubleApplied: number;
}

export interface E2eCaseResult {
  readonly batchSize: number;
  readonly floor: FloorResult;
  /** From the first warm-up send to the first record outcome: boot of the Lambda environments included. */
  readonly coldStartMs: number;
  readonly run: E2eRun;
  /** DynamoDB ops/s the pipeline drove (throughput × calls per message) over the concurrent PutItem floor. */
  readonly floorRatio: number;
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
  const stream = await generateStream(loadProfile(options.app), streamContractOf(cloud.outputs), { messages, duplicateRatio, seed: `${options.seed}:${runId}`, runId });
  const sent = await publish({ sqs: cloud.clients.sqs, queueUrl: cloud.outputs[OutputName.QueueUrl] as string, messages: stream, maxBacklog: options.maxBacklog, ratePerSecond: 0 });
  await cloud.drain({ timeoutMs: options.settleTimeoutSeconds * 1000 }).catch((error: unknown) => {
    throw new SettleTimeoutError(`run ${runId} did not settle within ${options.settleTimeoutSeconds} s: ${(error as Error).message}`, { cause: error });
  });
  return sent;
}

/**
 * One batch size: boots the stack on a fresh local cloud, measures the storage floor on its emulators (pipes
 * not yet polling), warms the functions up, then measures a run end to end and, optionally, profiles another.
 */
export async function runE2eCase(batchSize: number, options: BenchOptions, note: (line: string) => void = () => undefined): Promise<E2eCaseResult> {
  const stack = synthLoadStack({ stackName: `bench-b${batchSize}`, region: "us-east-1", namePrefix: `bench${batchSize}` }, { batchSize }, options.app);
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

    note(`batch ${batchSize}: measured run (${options.messages} messages, ${options.duplicateRatio * 100}% duplicates)`);
    const requestsBefore = live.stats().dynamodbRequests;
    const cpu = startThreadCpu();
    const started = Date.now();
    const sent = await pushThrough(live, options, options.messages, "measured", options.duplicateRatio);
    const ms = Date.now() - started;
    const threadCpu = cpu.stop();
    const dynamoCalls = requestDelta(live.stats().dynamodbRequests, requestsBefore);
    const [effects, dlq] = await Promise.all([
      readEffects(live.clients.dynamodb, live.outputs[OutputName.EffectsTable] as string),
      peekDlq(live.clients.sqs, live.outputs[OutputName.DlqUrl] as string),
    ]);
    const verification = verify(sent, effects, dlq);
    const throughput = perSecond(options.messages, ms);
    const calls = callsPerMessage(dynamoCalls, options.messages);
    const run: E2eRun = {
      messages: options.messages,
      ms,
      throughput,
      dynamoCalls,
      dynamoCallsPerMessage: calls,
      cpu: threadCpu,
      lost: verification.lost.length,
      doubleApplied: verification.doubleApplied.length,
    };

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
    return {
      batchSize,
      floor,
      coldStartMs: firstOutcome > 0 ? firstOutcome - warmStart : 0,
      run,
      floorRatio: floorRatio(throughput, calls, floor.dynamoPutConcurrent),
      profile,
    };
  } finally {
    await cloud?.stop();
    stack.cleanup();
  }
}
