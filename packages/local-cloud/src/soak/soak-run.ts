import { startLocalCloud, type CloudEvent, type LocalCloud, type LocalCloudStats } from "../cloud";
import { DEFAULTS } from "@effectively-once/pipeline/settings";
import { peekDlq, readEffects, verify, type Verification } from "../observe";
import { SettleTimeoutError } from "./errors";
import { checkFates, type FateChecks } from "./fate-checks";
import { faultSetup } from "./fault-profile";
import { generateStream, streamMix, type LoadKind } from "./generator";
import { checkLedger, type LedgerCheck } from "./ledger-check";
import { startProgressBar, type ProgressOutput } from "./progress-bar";
import { publish } from "./publisher";
import type { SoakOptions } from "./soak-options";
import { synthLoadStack } from "../stack/load-stack";
import { loadProfile } from "../stack/apps";
import { streamContractOf } from "../stack/contract";
import { OutputName } from "@effectively-once/contract";

/** Outcome events counted while the soak runs. */
export interface LiveCounts {
  processed: number;
  duplicate: number;
  quarantined: number;
  retry: number;
}

/** Everything a soak measured and checked; the report is built from it. */
export interface SoakResult {
  /** The options the soak ran with (defaults filled in). */
  readonly options: SoakOptions;
  /** How many messages of each kind were sent. */
  readonly mix: Record<LoadKind, number>;
  /** The fault rules in force, one line each. */
  readonly faultRules: readonly string[];
  /** The guarantee checked over every message sent: none lost, none applied twice. */
  readonly verification: Verification;
  /** Each message's DLQ reason held to the kind it was sent as. */
  readonly fates: FateChecks;
  /** The ledger's claims held to the fates. */
  readonly ledger: LedgerCheck;
  /** The queues' and tables' counts at the end. */
  readonly counts: LiveCounts;
  /** What the local cloud did (executions, invocations, requests). */
  readonly stats: LocalCloudStats;
  /** Where the time went, in milliseconds. */
  readonly timings: {
    /** Synth and start of the local cloud. */
    readonly bootMs: number;
    /** Publishing the stream. */
    readonly publishMs: number;
    /** Waiting until every message has a fate. */
    readonly settleMs: number;
    /** The whole run. */
    readonly runMs: number;
  };
}

export interface SoakIo {
  /** Where the progress bar goes (stderr); undefined = no progress. */
  readonly progress?: ProgressOutput;
  /** One-line notes (synth, boot, settle) on stderr. */
  readonly note?: (line: string) => void;
}

/**
 * Boots the payments stack on the local cloud with test-sized windows and the chosen fault profile, publishes
 * the seeded stream with back-pressure, waits until every message has a fate, then checks the README's guarantees over
 * every key from what a client can observe (effects table, DLQ, ledger).
 */
export async function runSoak(options: SoakOptions, io: SoakIo = {}): Promise<SoakResult> {
  const note = io.note ?? (() => undefined);
  const started = Date.now();
  const stack = synthLoadStack({ stackName: "soak-pipeline", region: "us-east-1", namePrefix: "soak" }, { batchSize: options.batchSize }, options.app);
  const setup = faultSetup(options.faultProfile, stack.names, options.seed);
  let cloud: LocalCloud | undefined;
  try {
    cloud = await startLocalCloud({
      stackFile: stack.stackFile,
      faults: setup.faults,
      expireVisibilityEarly: setup.expireVisibilityEarly,
      retryVisibilityTimeoutSeconds: options.retryAfterSeconds,
      pipeConcurrency: options.pipeConcurrency,
      maxFunctionEnvironments: options.functionEnvironments,
      // Retention is days: nothing can expire during a run, and a full-table sweep every second grows with it.
      ttlSweepIntervalMs: 0,
      dynamoPlacement: options.dynamoPlacement,
    });
    const bootMs = Date.now() - started;
    note(`local cloud up in ${bootMs} ms (faults: ${options.faultProfile})`);
    const live = cloud;
    const counts: LiveCounts = { processed: 0, duplicate: 0, quarantined: 0, retry: 0 };
    // A message delivered twice at once (early visibility expiry) has two outcomes: count messages, not outcomes.
    const settled = new Set<string>();
    const unsubscribe = live.subscribe((event: CloudEvent) => {
      if (event.type !== "record-outcome") return;
      counts[event.outcome] += 1;
      if (event.outcome !== "retry") settled.add(event.messageId);
    });
    const streamOptions = {
      messages: options.messages,
      duplicateRatio: options.duplicateRatio,
      invalidRatio: options.invalidRatio,
      conflictRatio: options.conflictRatio,
      rejectedRatio: options.rejectedRatio,
      seed: options.seed,
      runId: `soak-${options.seed}`,
    };
    const messages = await generateStream(loadProfile(options.app, options.messageProfile), streamContractOf(live.outputs), streamOptions);
    let published = 0;
    const publishStarted = Date.now();
    const bar = io.progress
      ? startProgressBar(io.progress, () => ({
          total: messages.length,
          published,
          settled: settled.size,
          retried: counts.retry,
          faults: (live.stats().faults?.total ?? 0) + live.stats().visibilityExpiredEarly,
          elapsedMs: Date.now() - publishStarted,
        }))
      : undefined;
    let sent;
    let publishMs = 0;
    try {
      sent = await publish({
        sqs: live.clients.sqs,
        queueUrl: live.outputs[OutputName.QueueUrl] as string,
        messages,
        maxBacklog: options.maxBacklog,
        ratePerSecond: options.rate,
        onSent: (n) => (published = n),
      });
      publishMs = Date.now() - publishStarted;
      await live.drain({ timeoutMs: options.settleTimeoutSeconds * 1000 }).catch((error: unknown) => {
        throw new SettleTimeoutError(`the pipeline did not settle within ${options.settleTimeoutSeconds} s of the last send: ${(error as Error).message}`, { cause: error });
      });
    } finally {
      bar?.stop();
      unsubscribe();
    }
    const settleMs = Date.now() - publishStarted;
    note(`settled in ${(settleMs / 1000).toFixed(1)} s; checking every key`);
    const [effects, dlq, ledger] = await Promise.all([
      readEffects(live.clients.dynamodb, live.outputs[OutputName.EffectsTable] as string),
      peekDlq(live.clients.sqs, live.outputs[OutputName.DlqUrl] as string, { max: options.messages * 2 }),
      checkLedger(live.clients.dynamodb, live.outputs[OutputName.LedgerTable] as string, { retentionSeconds: DEFAULTS.retentionSeconds }),
    ]);
    return {
      options,
      mix: streamMix(streamOptions),
      faultRules: setup.description,
      verification: verify(sent, effects, dlq),
      fates: checkFates(sent, dlq),
      ledger,
      counts,
      stats: live.stats(),
      timings: { bootMs, publishMs, settleMs, runMs: Date.now() - started },
    };
  } finally {
    await cloud?.stop();
    stack.cleanup();
  }
}
