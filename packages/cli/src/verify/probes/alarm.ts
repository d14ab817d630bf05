/**
 * An alarm reached after a quarantine: a body that is not JSON goes through the probe stack's pipe, the workflow
 * quarantines it (`invalid-message`), and the probe reads the DLQ depth alarm's state (DescribeAlarms on AWS, the
 * local evaluator offline) until it is in ALARM or the wait runs out. What the offline proof assumes: a quarantine
 * pages, and the alarm notifies someone (docs/operations.md, "Alarms").
 */
import type { Fact, Probe, ProbeContext } from "../types";
import { peekDlq, send } from "./messages";

/** SQS publishes its metrics every minute, and CloudWatch reads them a few minutes late: give it ten. */
const WAIT_MS = 10 * 60_000;
const POLL_MS = 60_000;

/** The probe stack's DLQ depth alarm: the synthesized alarm whose name ends in `-dlq-depth`. */
function dlqDepthAlarm(context: Pick<ProbeContext, "stack">): string {
  const names = Object.values(context.stack.stack.resources.aws_cloudwatch_metric_alarm ?? {}).map((a) => String((a as { alarm_name?: unknown }).alarm_name));
  const name = names.find((n) => n === `${context.stack.config.namePrefix}-dlq-depth`);
  if (!name) throw new Error(`the probe stack has no alarm ${context.stack.config.namePrefix}-dlq-depth (its alarms: ${names.join(", ") || "none"})`);
  return name;
}

export const alarmProbe: Probe = {
  id: "alarm-after-quarantine",
  title: "A quarantine puts the DLQ depth alarm in ALARM, and the alarm notifies someone",
  protects: "a quarantined message pages someone before the DLQ's retention deletes it (docs/operations.md, Alarms)",
  needsStack: true,
  calls: (stack) => [
    { service: "SQS", action: "SendMessage", count: 1, resource: stack.names.queue, why: "one body that is not JSON: quarantined as invalid-message" },
    { service: "SQS", action: "ReceiveMessage", count: 10, resource: stack.names.dlq, why: "the quarantined copy, left in the DLQ (visibility 0; polled)" },
    { service: "CloudWatch", action: "DescribeAlarms", count: WAIT_MS / POLL_MS + 1, resource: `${stack.config.namePrefix}-dlq-depth`, why: "the DLQ depth alarm's state, once a minute until ALARM" },
  ],
  async run(context) {
    if (!context.alarms) throw new Error("this target reads no alarms");
    const alarm = dlqDepthAlarm(context);
    const body = `not json: ${context.runId} alarm probe`;
    await send(context, body);
    let copies = 0;
    let answer = (await context.alarms.describe([alarm]))[0];
    for (let waited = 0; waited < WAIT_MS && answer?.state !== "ALARM"; waited += POLL_MS) {
      await context.alarms.wait(POLL_MS);
      if (copies === 0) copies = (await peekDlq(context, (b) => b === body)).length;
      answer = (await context.alarms.describe([alarm]))[0];
    }
    const facts: Fact[] = [
      ["the body reached the DLQ", String(copies > 0)],
      ["DLQ depth alarm exists", String(answer !== undefined)],
      ["its state within ten minutes of the quarantine", answer?.state ?? "absent"],
      ["it notifies someone in ALARM", String((answer?.alarmActions ?? 0) > 0)],
      ["why", answer?.reason ?? "", false],
    ];
    const failures = answer?.state === "ALARM" ? [] : [`${alarm} was ${answer?.state ?? "absent"}, not ALARM, ten minutes after a quarantine: a quarantined message would page nobody`];
    return { facts, failures };
  },
};
