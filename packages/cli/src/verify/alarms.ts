/**
 * How a probe reads an alarm's state: CloudWatch's DescribeAlarms (by name, every page), on AWS or on the local cloud's
 * CloudWatch endpoint (DescribeAlarms over its alarm evaluator, packages/local-cloud/src/alarms/describe-endpoint.ts).
 * Waiting differs: on AWS time passes; on the local cloud a wait evaluates the alarms a minute at a time.
 */
import { DescribeAlarmsCommand, type DescribeAlarmsCommandInput, type DescribeAlarmsCommandOutput } from "@aws-sdk/client-cloudwatch";
import type { LocalCloud } from "@effectively-once/local-cloud";

/** One alarm as a probe sees it. */
export interface AlarmStateAnswer {
  readonly name: string;
  /** `OK`, `ALARM` or `INSUFFICIENT_DATA` (CloudWatch's StateValue). */
  readonly state: string;
  readonly reason: string;
  /** How many actions its ALARM state notifies. */
  readonly alarmActions: number;
}

/** The alarms a probe reads, and how it lets their evaluations happen. */
export interface AlarmReader {
  describe(names: readonly string[]): Promise<AlarmStateAnswer[]>;
  /** Lets `ms` pass for the alarms (AWS: a wait; local: evaluations, a minute at a time). */
  wait(ms: number): Promise<void>;
}

/** What the reader needs of a CloudWatch client: the SDK's `send`. */
export interface DescribeAlarmsSender {
  send(command: DescribeAlarmsCommand): Promise<DescribeAlarmsCommandOutput>;
}

/** The DescribeAlarms requests for `names`: metric alarms only, at most 100 names a request (the API's limit). */
function describeAlarmsInputs(names: readonly string[], nextToken?: string): DescribeAlarmsCommandInput[] {
  const inputs: DescribeAlarmsCommandInput[] = [];
  for (let i = 0; i < names.length; i += 100) inputs.push({ AlarmNames: names.slice(i, i + 100), AlarmTypes: ["MetricAlarm"], ...(nextToken ? { NextToken: nextToken } : {}) });
  return inputs;
}

/** Reads the named metric alarms on AWS, following NextToken; an alarm that does not exist is absent from the answer. */
export async function describeAlarmStates(client: DescribeAlarmsSender, names: readonly string[]): Promise<AlarmStateAnswer[]> {
  const found: AlarmStateAnswer[] = [];
  for (const first of describeAlarmsInputs(names)) {
    let input: DescribeAlarmsCommandInput | undefined = first;
    while (input) {
      const out: DescribeAlarmsCommandOutput = await client.send(new DescribeAlarmsCommand(input));
      for (const a of out.MetricAlarms ?? []) found.push({ name: a.AlarmName ?? "", state: a.StateValue ?? "", reason: a.StateReason ?? "", alarmActions: a.AlarmActions?.length ?? 0 });
      input = out.NextToken ? { ...first, NextToken: out.NextToken } : undefined;
    }
  }
  return found;
}

/** DescribeAlarms through `client` (AWS's, or the local cloud's CloudWatch endpoint); `wait` lets evaluations happen. */
export function alarmReader(client: DescribeAlarmsSender, wait: (ms: number) => Promise<void>): AlarmReader {
  return { describe: (names) => describeAlarmStates(client, names), wait };
}

/** On the local cloud, time for the alarms is evaluations, a minute at a time, once the cloud has done its work. */
export function localAlarmWait(cloud: Pick<LocalCloud, "alarms" | "drain">): (ms: number) => Promise<void> {
  return async (ms) => {
    await cloud.drain();
    await cloud.alarms.advance(Math.ceil(ms / 1000));
  };
}
