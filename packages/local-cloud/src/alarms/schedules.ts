/**
 * The stack's EventBridge Scheduler schedules, run on the local clock: `rate(<n> minute(s)|hour(s)|day(s))` with
 * flexible time window OFF, and the one universal target the construct uses, `aws-sdk:sqs:getQueueAttributes` (its
 * `input` is the call's parameters). Any other expression or target is refused at start-up.
 */
import { GetQueueAttributesCommand, type SQSClient } from "@aws-sdk/client-sqs";
import type { MonitoringResource } from "../provision/monitoring";

const UNIT_MS = new Map([
  ["minute", 60_000],
  ["hour", 3_600_000],
  ["day", 86_400_000],
]);
const TARGET = /^arn:[a-z-]+:scheduler:::aws-sdk:sqs:getQueueAttributes$/;

interface Schedule {
  readonly name: string;
  readonly everyMs: number;
  readonly input: { QueueUrl: string; AttributeNames?: string[] };
  next: number;
}

function readSchedule(r: MonitoringResource, now: number): Schedule {
  const fail = (message: string): never => {
    throw new Error(`${r.address}: ${message} (packages/local-cloud/src/alarms/README.md)`);
  };
  const rate = /^rate\((\d+) (minute|hour|day)s?\)$/.exec(String(r.body.schedule_expression)) ?? fail(`schedule_expression ${String(r.body.schedule_expression)} is not implemented (only rate(...))`);
  const window = (Array.isArray(r.body.flexible_time_window) ? r.body.flexible_time_window[0] : r.body.flexible_time_window) as { mode?: string } | undefined;
  if (window?.mode !== "OFF") fail("flexible_time_window must be OFF locally");
  if (r.body.state === "DISABLED") fail("a DISABLED schedule is not implemented");
  const target = (Array.isArray(r.body.target) ? r.body.target[0] : r.body.target) as { arn?: string; input?: string } | undefined;
  if (!TARGET.test(String(target?.arn))) fail(`target ${String(target?.arn)} is not implemented (only aws-sdk:sqs:getQueueAttributes)`);
  const everyMs = Number(rate[1]) * UNIT_MS.get(rate[2])!;
  return { name: String(r.body.name), everyMs, input: JSON.parse(String(target!.input)), next: now + everyMs };
}

export class LocalSchedules {
  private readonly schedules: Schedule[];
  /** Calls made, by schedule name. */
  readonly runs = new Map<string, number>();

  constructor(resources: readonly MonitoringResource[], private readonly sqs: SQSClient, now: number) {
    this.schedules = resources.map((r) => readSchedule(r, now));
  }

  /** Runs every schedule that is due at `now` (once per due time). */
  async runDue(now: number): Promise<void> {
    for (const s of this.schedules) {
      while (s.next <= now) {
        s.next += s.everyMs;
        await this.sqs.send(new GetQueueAttributesCommand({ QueueUrl: s.input.QueueUrl, AttributeNames: (s.input.AttributeNames ?? ["All"]) as never }));
        this.runs.set(s.name, (this.runs.get(s.name) ?? 0) + 1);
      }
    }
  }
}
