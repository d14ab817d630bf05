/**
 * The local CloudWatch endpoint: DescribeAlarms over the local alarm evaluator, in the JSON 1.0 protocol the AWS SDK
 * for JavaScript speaks to CloudWatch (`X-Amz-Target: GraniteServiceVersion20100801.DescribeAlarms`, epoch-second
 * timestamps), so that a client reads the local alarms as it reads a deployed stack's (`npm run verify`'s alarm
 * probe). Metric alarms only (the stack has no composite alarm): `AlarmNames`, `AlarmNamePrefix`, `StateValue`,
 * `MaxRecords` (1–100, default 50) and `NextToken`, as CloudWatch's model states them. Binds 127.0.0.1 on a free port.
 */
import { startJsonService } from "../json-protocol/server";
import type { AlarmDefinition } from "./alarm-definition";
import type { AlarmState } from "./evaluate";

/** One alarm as DescribeAlarms reports it: its definition, its state and the last change of it. */
export interface DescribedAlarm {
  readonly definition: AlarmDefinition;
  readonly state: AlarmState;
  /** Why it is in its state (the last transition's reason; a new alarm's own words). */
  readonly reason: string;
  /** Epoch ms of the last change (the evaluator's creation when none). */
  readonly updatedAt: number;
}


const TARGET = "GraniteServiceVersion20100801.DescribeAlarms";
const STATES = new Set(["OK", "ALARM", "INSUFFICIENT_DATA"]);

class CloudWatchApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = code;
  }
}

interface DescribeRequest {
  AlarmNames?: string[];
  AlarmNamePrefix?: string;
  AlarmTypes?: string[];
  StateValue?: string;
  MaxRecords?: number;
  NextToken?: string;
}

/** One metric alarm as DescribeAlarms' `MetricAlarm` shape spells it (the members the local evaluator knows). */
function metricAlarm(a: DescribedAlarm, arnOf: (name: string) => string): Record<string, unknown> {
  const d = a.definition;
  return {
    AlarmName: d.name,
    AlarmArn: arnOf(d.name),
    AlarmDescription: d.description,
    ActionsEnabled: true,
    OKActions: [...d.okActions],
    AlarmActions: [...d.alarmActions],
    InsufficientDataActions: [...d.insufficientDataActions],
    StateValue: a.state,
    StateReason: a.reason,
    StateUpdatedTimestamp: a.updatedAt / 1000,
    Period: d.period,
    EvaluationPeriods: d.evaluationPeriods,
    DatapointsToAlarm: d.datapointsToAlarm,
    Threshold: d.threshold,
    ComparisonOperator: d.comparison,
    TreatMissingData: d.treatMissingData,
  };
}

function describeAlarms(alarms: readonly DescribedAlarm[], r: DescribeRequest, arnOf: (name: string) => string) {
  if (r.AlarmNames && r.AlarmNamePrefix) throw new CloudWatchApiError("InvalidParameterCombination", "AlarmNames and AlarmNamePrefix cannot be used together");
  if (r.StateValue !== undefined && !STATES.has(r.StateValue)) throw new CloudWatchApiError("ValidationError", `StateValue ${r.StateValue} is not one of OK, ALARM, INSUFFICIENT_DATA`);
  const max = r.MaxRecords ?? 50;
  if (!Number.isInteger(max) || max < 1 || max > 100) throw new CloudWatchApiError("ValidationError", `MaxRecords ${max} is not within 1 to 100`);
  const wantsMetric = !r.AlarmTypes || r.AlarmTypes.includes("MetricAlarm");
  const matching = alarms.filter(
    (a) =>
      wantsMetric &&
      (!r.AlarmNames || r.AlarmNames.includes(a.definition.name)) &&
      (!r.AlarmNamePrefix || a.definition.name.startsWith(r.AlarmNamePrefix)) &&
      (!r.StateValue || a.state === r.StateValue),
  );
  const from = r.NextToken ? Number(r.NextToken) : 0;
  if (!Number.isInteger(from) || from < 0) throw new CloudWatchApiError("InvalidNextToken", "The NextToken is not valid");
  const page = matching.slice(from, from + max);
  return { MetricAlarms: page.map((a) => metricAlarm(a, arnOf)), CompositeAlarms: [], ...(from + max < matching.length ? { NextToken: String(from + max) } : {}) };
}

/** A running local CloudWatch endpoint. */
export interface CloudWatchEndpoint {
  /** `http://127.0.0.1:<port>` */
  readonly endpoint: string;
  stop(): Promise<void>;
}

/**
 * Starts the endpoint over `alarms` (read at each request) on 127.0.0.1. The alarms' ARNs take the region, and the
 * partition and account of `stackArn` (any ARN of the stack; none: `aws`, 000000000000).
 */
export async function startCloudWatchEndpoint(alarms: { describe(): readonly DescribedAlarm[] }, where: { region: string; stackArn?: string }): Promise<CloudWatchEndpoint> {
  const [, partition = "aws", , , account = "000000000000"] = (where.stackArn ?? "").split(":");
  const arnOf = (name: string) => `arn:${partition || "aws"}:cloudwatch:${where.region}:${account || "000000000000"}:alarm:${name}`;
  const { endpoint, stop } = await startJsonService({
    contentType: "application/x-amz-json-1.0",
    handle: (target, body) => {
      if (target !== TARGET) throw new CloudWatchApiError("UnknownOperationException", `The local CloudWatch endpoint answers ${TARGET}; got '${target}'`);
      return describeAlarms(alarms.describe(), body() as DescribeRequest, arnOf);
    },
    errorOf: (error) => (error instanceof CloudWatchApiError ? { code: error.code, status: 400 } : { code: "InternalFailure", status: 500 }),
  });
  return { endpoint, stop };
}
