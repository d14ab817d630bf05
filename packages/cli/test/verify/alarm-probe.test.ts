/**
 * The verify alarm probe, held to recorded answers shaped by CloudWatch's own API model (botocore `monitoring`,
 * packages/testing/src/aws-models/cloudwatch.json): the requests it sends are ones DescribeAlarms accepts, it follows
 * NextToken, and after a quarantine it reports the DLQ depth alarm's state, failing when it never reaches ALARM.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DescribeAlarmsCommand, type DescribeAlarmsCommandOutput } from "@aws-sdk/client-cloudwatch";
import { ReceiveMessageCommand, SendMessageCommand } from "@aws-sdk/client-sqs";
import { OutputName } from "@effectively-once/contract";
import { checkOperationShape } from "@effectively-once/testing";
import { alarmReader, describeAlarmStates, type DescribeAlarmsSender } from "../../src/verify/alarms";
import { alarmProbe } from "../../src/verify/probes/alarm";
import type { ProbeContext } from "../../src/verify/types";

const RECORDED = JSON.parse(readFileSync(join(__dirname, "fixtures", "describe-alarms.json"), "utf8")) as { answers: Record<string, unknown>[] };

/** A CloudWatch client that answers from `answers` in turn (the last one again once they run out), and keeps the requests. */
function recordedCloudWatch(answers: readonly Record<string, unknown>[]) {
  const requests: unknown[] = [];
  let next = 0;
  const sender: DescribeAlarmsSender = {
    async send(command: DescribeAlarmsCommand) {
      requests.push(command.input);
      const answer = answers[Math.min(next++, answers.length - 1)];
      return { ...answer, $metadata: {} } as unknown as DescribeAlarmsCommandOutput;
    },
  };
  return { sender, requests };
}

/** A probe context on the probe stack `payments-vfy`: an SQS that takes the send and shows the body in the DLQ. */
function probeContext(cloudwatch: DescribeAlarmsSender, waits: number[]): ProbeContext {
  let sent = "";
  const sqs = {
    async send(command: unknown) {
      if (command instanceof SendMessageCommand) return ((sent = command.input.MessageBody!), { MessageId: "m-1" });
      if (command instanceof ReceiveMessageCommand) return { Messages: [{ Body: sent }] };
      throw new Error("unexpected SQS command");
    },
  };
  return {
    clients: { sqs },
    alarms: alarmReader(cloudwatch, async (ms) => void waits.push(ms)),
    stack: { config: { namePrefix: "payments-vfy" }, stack: { resources: { aws_cloudwatch_metric_alarm: { depth: { alarm_name: "payments-vfy-dlq-depth" }, other: { alarm_name: "payments-vfy-dlq-arrivals" } } } } },
    outputs: { [OutputName.QueueUrl]: "https://sqs.eu-west-1.amazonaws.com/111122223333/payments-vfy-queue", [OutputName.DlqUrl]: "https://sqs.eu-west-1.amazonaws.com/111122223333/payments-vfy-dlq" },
    runId: "vfy-test",
  } as unknown as ProbeContext;
}

describe("verify: the alarm probe against answers shaped by CloudWatch's model", () => {
  it("holds recorded answers that CloudWatch's model accepts as DescribeAlarms output", () => {
    expect(RECORDED.answers).toHaveLength(2);
    for (const answer of RECORDED.answers) expect(checkOperationShape("cloudwatch", "DescribeAlarms", "output", answer)).toEqual([]);
    // The check can fail: a state CloudWatch does not have.
    const [first] = RECORDED.answers as { MetricAlarms: Record<string, unknown>[] }[];
    expect(checkOperationShape("cloudwatch", "DescribeAlarms", "output", { ...first, MetricAlarms: [{ ...first.MetricAlarms[0], StateValue: "PAGING" }] })).toEqual([
      { path: "Answer.MetricAlarms[0].StateValue", problem: expect.stringMatching(/"PAGING" is not one of StateValue's values/) },
    ]);
  });

  it("sends requests DescribeAlarms accepts, and follows NextToken to the last page", async () => {
    const [insufficient, alarm] = RECORDED.answers;
    const { sender, requests } = recordedCloudWatch([{ ...insufficient, NextToken: "page-2" }, alarm]);
    const states = await describeAlarmStates(sender, ["payments-vfy-dlq-depth"]);
    expect(states.map((s) => s.state)).toEqual(["INSUFFICIENT_DATA", "ALARM"]);
    expect(requests).toEqual([
      { AlarmNames: ["payments-vfy-dlq-depth"], AlarmTypes: ["MetricAlarm"] },
      { AlarmNames: ["payments-vfy-dlq-depth"], AlarmTypes: ["MetricAlarm"], NextToken: "page-2" },
    ]);
    for (const request of requests) expect(checkOperationShape("cloudwatch", "DescribeAlarms", "input", request)).toEqual([]);
  });

  it("reports the DLQ depth alarm in ALARM after a quarantine, notifying someone, waiting a minute between reads", async () => {
    const waits: number[] = [];
    const { sender } = recordedCloudWatch(RECORDED.answers);
    const { facts, failures } = await alarmProbe.run(probeContext(sender, waits));
    expect(Object.fromEntries(facts.map(([name, value]) => [name, value]))).toMatchObject({
      "the body reached the DLQ": "true",
      "DLQ depth alarm exists": "true",
      "its state within ten minutes of the quarantine": "ALARM",
      "it notifies someone in ALARM": "true",
    });
    expect(failures).toEqual([]);
    expect(waits).toEqual([60_000]);
  });

  it("fails when the alarm is still not in ALARM ten minutes after the quarantine", async () => {
    const waits: number[] = [];
    const { sender } = recordedCloudWatch([RECORDED.answers[0]]);
    const { facts, failures } = await alarmProbe.run(probeContext(sender, waits));
    expect(facts.find(([name]) => name === "its state within ten minutes of the quarantine")?.[1]).toBe("INSUFFICIENT_DATA");
    expect(failures).toEqual([expect.stringMatching(/^payments-vfy-dlq-depth was INSUFFICIENT_DATA, not ALARM, ten minutes after a quarantine/)]);
    expect(waits).toHaveLength(10);
  });
});
