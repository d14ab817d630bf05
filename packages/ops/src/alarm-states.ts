import { type CloudWatchClient, DescribeAlarmsCommand, type DescribeAlarmsCommandOutput } from "@aws-sdk/client-cloudwatch";
import { OutputName } from "@effectively-once/contract";
import { awsCall } from "./aws-errors";
import { TargetError } from "./errors";
import { requireOutput } from "./outputs";
import type { OpsContext } from "./types";

/** One alarm of the stack as CloudWatch's DescribeAlarms reports it. */
export interface AlarmState {
  readonly name: string;
  /** OK, ALARM or INSUFFICIENT_DATA. */
  readonly state: string;
  readonly reason?: string;
  /** Epoch ms of the last state change. */
  readonly since?: number;
  readonly description?: string;
}

/** What `status` says about alarms: their states, or why none were read. */
export type AlarmReport = { readonly evaluated: true; readonly prefix: string; readonly alarms: readonly AlarmState[] } | { readonly evaluated: false; readonly note: string };

/** The local cloud has no CloudWatch: said plainly rather than inventing states. */
export const NOT_EVALUATED_LOCALLY = "alarms: not evaluated locally";

/**
 * The stack's alarms are named `<namePrefix>-<id>`, like its tables (`<namePrefix>-ledger`: packages/pipeline's
 * resource-names.ts): the prefix is read off the ledger table's output, so no output of its own is needed.
 */
export function alarmNamePrefix(ctx: Pick<OpsContext, "outputs" | "targetLabel">): string {
  const ledger = requireOutput(ctx, OutputName.LedgerTable);
  if (!ledger.endsWith("-ledger")) throw new TargetError(`${ctx.targetLabel}: the ledger table "${ledger}" is not named <namePrefix>-ledger, so its alarms cannot be found by name`);
  return `${ledger.slice(0, -"ledger".length)}`;
}

/** DescribeAlarms by name prefix, every page; metric and composite alarms alike. */
export async function readAlarmStates(ctx: OpsContext, cloudwatch: CloudWatchClient | undefined): Promise<AlarmReport> {
  if (!cloudwatch) return { evaluated: false, note: NOT_EVALUATED_LOCALLY };
  const prefix = alarmNamePrefix(ctx);
  const alarms: AlarmState[] = [];
  let token: string | undefined;
  do {
    const page: DescribeAlarmsCommandOutput = await awsCall("reading the alarms (cloudwatch:DescribeAlarms)", { service: "CloudWatch", resource: `alarms named ${prefix}*` }, () =>
      cloudwatch.send(new DescribeAlarmsCommand({ AlarmNamePrefix: prefix, AlarmTypes: ["MetricAlarm", "CompositeAlarm"], NextToken: token })),
    );
    for (const a of [...(page.MetricAlarms ?? []), ...(page.CompositeAlarms ?? [])]) {
      alarms.push({
        name: a.AlarmName ?? "?",
        state: a.StateValue ?? "?",
        ...(a.StateReason ? { reason: a.StateReason } : {}),
        ...(a.StateUpdatedTimestamp ? { since: a.StateUpdatedTimestamp.getTime() } : {}),
        ...(a.AlarmDescription ? { description: a.AlarmDescription } : {}),
      });
    }
    token = page.NextToken;
  } while (token);
  // ALARM first: what needs a person comes first.
  const rank = (s: string) => (s === "ALARM" ? 0 : s === "INSUFFICIENT_DATA" ? 1 : 2);
  alarms.sort((x, y) => rank(x.state) - rank(y.state) || x.name.localeCompare(y.name));
  return { evaluated: true, prefix, alarms };
}
