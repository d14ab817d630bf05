import { buildReview } from "../../src/terraform/review/build";
import { ActionBasis, RiskKind, Severity, type RiskFlag } from "../../src/terraform/review/types";
import { plan, update, type FixtureResource } from "./support/plan-fixtures";

const ALARM = "aws_cloudwatch_metric_alarm.dlq_depth";
const TOPIC = "arn:aws:sns:us-east-1:000000000000:p-alarms";

function alarm(overrides: Record<string, unknown> = {}) {
  return { alarm_name: "p-dlq-depth", alarm_description: "The DLQ holds messages.", alarm_actions: [TOPIC], ok_actions: [TOPIC], actions_enabled: true, ...overrides };
}

function risks(resources: readonly FixtureResource[], basis: ActionBasis = ActionBasis.RealState): RiskFlag[] {
  return [...buildReview(plan(resources), { basis }).risks];
}

describe("Function: alarmRisks (via buildReview)", () => {
  it("flags a destroyed alarm, naming what it watched", () => {
    const flags = risks([{ address: ALARM, actions: ["delete"], before: alarm(), after: null }]);
    expect(flags).toEqual([expect.objectContaining({ kind: RiskKind.AlarmRemoved, severity: Severity.High, address: ALARM })]);
    expect(flags[0].message).toContain("ALARM REMOVED: p-dlq-depth");
    expect(flags[0].message).toContain("The DLQ holds messages.");
  });

  it("flags an alarm that loses its ALARM action (high) or its OK action (medium), or disables its actions", () => {
    expect(risks([update(ALARM, alarm(), alarm({ alarm_actions: [] }))])).toEqual([expect.objectContaining({ kind: RiskKind.AlarmActionsRemoved, severity: Severity.High, message: expect.stringContaining(`no longer notifies ${TOPIC} on ALARM`) })]);
    expect(risks([update(ALARM, alarm(), alarm({ ok_actions: [] }))])).toEqual([expect.objectContaining({ kind: RiskKind.AlarmActionsRemoved, severity: Severity.Medium })]);
    expect(risks([update(ALARM, alarm(), alarm({ actions_enabled: false }))])).toEqual([expect.objectContaining({ kind: RiskKind.AlarmActionsRemoved, severity: Severity.High, message: expect.stringContaining("ALARM ACTIONS DISABLED") })]);
  });

  it("flags a planned alarm that notifies nobody when the plan has no before side, and nothing for one that does", () => {
    expect(risks([{ address: ALARM, actions: ["create"], after: alarm({ alarm_actions: [] }) }], ActionBasis.EmptyState)).toEqual([expect.objectContaining({ kind: RiskKind.AlarmActionsRemoved, message: expect.stringContaining("ALARM NOTIFIES NOBODY") })]);
    expect(risks([{ address: ALARM, actions: ["create"], after: alarm() }], ActionBasis.EmptyState)).toEqual([]);
    // A topic created in the same plan: its ARN is known after apply, which is not "no action".
    expect(risks([{ address: ALARM, actions: ["create"], after: alarm({ alarm_actions: undefined }), unknown: { alarm_actions: true } }], ActionBasis.EmptyState)).toEqual([]);
  });

  it("flags the queue edit alert's rule or target destroyed, and nothing when it is created or updated", () => {
    const RULE = "aws_cloudwatch_event_rule.queue_edits";
    const rule = { name: "p-queue-edits", event_pattern: "{}" };
    expect(risks([{ address: RULE, actions: ["delete"], before: rule, after: null }])).toEqual([expect.objectContaining({ kind: RiskKind.QueueEditAlertRemoved, severity: Severity.Medium, address: RULE, message: expect.stringContaining("QUEUE EDIT ALERT REMOVED") })]);
    expect(risks([{ address: "aws_cloudwatch_event_target.queue_edits", actions: ["delete"], before: { rule: "p-queue-edits", arn: TOPIC }, after: null }])).toEqual([expect.objectContaining({ kind: RiskKind.QueueEditAlertRemoved })]);
    expect(risks([{ address: RULE, actions: ["create"], after: rule }], ActionBasis.EmptyState)).toEqual([]);
    expect(risks([update(RULE, rule, { ...rule, description: "changed" })])).toEqual([]);
  });

  it("stays silent when an alarm only changes its threshold or gains an action", () => {
    expect(risks([update(ALARM, alarm(), alarm({ threshold: 5, alarm_actions: [TOPIC, "arn:aws:sns:us-east-1:000000000000:pager"] }))])).toEqual([]);
  });
});
