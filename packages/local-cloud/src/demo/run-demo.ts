import type { LocalCloud } from "../cloud";
import type { MessageProfile } from "@effectively-once/pipeline";
import { streamContractOf } from "../stack/contract";
import { peekDlq, readEffects, verify } from "../observe";
import { showProgress } from "./progress";
import { publish, type PublishedMessage } from "./publish";
import { sampleStream } from "./sample-stream";
import { summarize } from "./summary";
import { ALARM_SETTLE_SECONDS, alarmSummary } from "./alarm-summary";
import { OutputName } from "@effectively-once/contract";

/** Publishes the sample stream wave by wave, waits for the pipeline to settle and prints the summary. */
export async function runDemo(cloud: LocalCloud, options: { profile: MessageProfile; orders: number; seed: number; retryAfterSeconds: number; startedAt: number }): Promise<boolean> {
  const queueUrl = cloud.outputs[OutputName.QueueUrl] as string;
  const stream = await sampleStream(options.profile, streamContractOf(cloud.outputs), { orders: options.orders, seed: options.seed, runId: `run${options.seed}` });
  const sent: PublishedMessage[] = [];
  const publishStarted = Date.now();
  const progress = showProgress(cloud);
  let counts;
  try {
    for (const [index, wave] of stream.waves.entries()) {
      sent.push(...(await publish(cloud.clients.sqs, queueUrl, wave)));
      // A wave is done when the queue is empty: retried records come back after --retry-after seconds.
      await cloud.drain({ timeoutMs: 120_000 + options.retryAfterSeconds * 1000 * 10 });
      if (index === 0) process.stdout.write("");
    }
  } finally {
    counts = progress.stop();
  }
  const elapsedMs = Date.now() - publishStarted;
  const [effects, dlq] = await Promise.all([
    readEffects(cloud.clients.dynamodb, cloud.outputs[OutputName.EffectsTable] as string),
    peekDlq(cloud.clients.sqs, cloud.outputs[OutputName.DlqUrl] as string),
  ]);
  const summary = summarize({ verification: verify(sent, effects, dlq), progress: counts, dlq, expectedQuarantine: stream.expectedQuarantine, elapsedMs });
  console.log(`\n${summary.text}\n`);
  // The pipeline is drained: two more minutes on the cloud's clock close the run's last periods for the alarms.
  await cloud.alarms.advance(ALARM_SETTLE_SECONDS);
  const inAlarm = [...cloud.alarms.states()].filter(([, state]) => state === "ALARM").map(([name]) => name);
  console.log(`${alarmSummary(cloud.alarms.fired(), inAlarm)}\n`);
  console.log(`done in ${((Date.now() - options.startedAt) / 1000).toFixed(1)} s (retried messages reappear after ${options.retryAfterSeconds} s locally; AWS waits the queue's visibility timeout)`);
  return summary.ok;
}
