import { PlanAction } from "../plan-json";
import type { ResourceReference } from "@effectively-once/local-cloud/terraform-json";
import { KNOWN_AFTER_APPLY, readers, type PlannedResource, type ValueReader } from "./planned";
import { RiskKind, Severity, type RiskFlag } from "./types";

/**
 * Whether a plan silences an alarm: the pipeline's promise ("quarantined with a reason") holds only if someone hears
 * of a quarantined message before the DLQ's retention deletes it (docs/operations.md, "Alarms"). Flags:
 * - an alarm the plan destroys (high);
 * - an alarm whose `alarm_actions` (high) or `ok_actions` (medium) lose an action, or whose actions are disabled;
 * - with no before side (an offline plan on an empty state), an alarm that notifies nobody (medium);
 * - the queue edit alert's EventBridge rule or target destroyed (medium).
 */

const ACTION_LISTS = ["alarm_actions", "ok_actions"] as const;

function actionsOf(r: ValueReader, list: (typeof ACTION_LISTS)[number]): string[] {
  const value = r.raw([list]);
  // A list Terraform knows only after apply (e.g. a topic created in the same plan) is not an empty one.
  if (!Array.isArray(value)) return r.shown([list]) === KNOWN_AFTER_APPLY ? [KNOWN_AFTER_APPLY] : [];
  return value.map((_, i) => r.template([list, i]) ?? String(r.raw([list, i])));
}

const nameOf = (r: ValueReader, address: string) => String(r.raw(["alarm_name"]) ?? address);

export function alarmRisks(planned: readonly PlannedResource[], label: (ref: ResourceReference) => string): RiskFlag[] {
  const hasBefore = planned.some((r) => r.before !== null && r.action !== PlanAction.Create);
  const flags: RiskFlag[] = [];
  const flag = (severity: RiskFlag["severity"], address: string, kind: RiskFlag["kind"], message: string) => flags.push({ kind, severity, address, basis: "terraform", message });
  for (const resource of planned.filter((r) => r.type === "aws_cloudwatch_metric_alarm")) {
    const { before, after } = readers(resource, label);
    if (before && !after) {
      flag(Severity.High, resource.address, RiskKind.AlarmRemoved, `ALARM REMOVED: ${nameOf(before, resource.address)} is destroyed: what it watched (its description: "${String(before.raw(["alarm_description"]) ?? "")}") pages nobody any more. Keep it, or say in the pull request who hears of it instead.`);
      continue;
    }
    if (!after) continue;
    if (before) {
      for (const list of ACTION_LISTS) {
        const gone = actionsOf(before, list).filter((a) => !actionsOf(after, list).includes(a));
        if (gone.length === 0) continue;
        flag(list === "alarm_actions" ? Severity.High : Severity.Medium, resource.address, RiskKind.AlarmActionsRemoved, `ALARM ACTIONS REMOVED: ${nameOf(after, resource.address)} no longer notifies ${gone.join(", ")} on ${list === "alarm_actions" ? "ALARM" : "return to OK"}.`);
      }
      if (before.raw(["actions_enabled"]) !== false && after.raw(["actions_enabled"]) === false) {
        flag(Severity.High, resource.address, RiskKind.AlarmActionsRemoved, `ALARM ACTIONS DISABLED: ${nameOf(after, resource.address)} sets actions_enabled = false: it changes state without telling anyone.`);
      }
    } else if (!hasBefore && actionsOf(after, "alarm_actions").length === 0) {
      flag(Severity.Medium, resource.address, RiskKind.AlarmActionsRemoved, `ALARM NOTIFIES NOBODY: ${nameOf(after, resource.address)} has no alarm_actions: leave the construct's alarmActions out (it creates an SNS topic) or name an action.`);
    }
  }
  // The queue edit alert (queue-edit-alert.ts): its rule or target destroyed, an edit of the queues tells nobody.
  for (const resource of planned.filter((r) => (r.type === "aws_cloudwatch_event_rule" || r.type === "aws_cloudwatch_event_target") && r.action === PlanAction.Destroy)) {
    flag(Severity.Medium, resource.address, RiskKind.QueueEditAlertRemoved, `QUEUE EDIT ALERT REMOVED: ${resource.address} is destroyed: an edit of the queues' attributes that opens a path back from the DLQ (docs/guarantees.md, "paths back from the DLQ") tells nobody. Keep queueEditAlert, or watch CloudTrail's SetQueueAttributes on the queues yourself.`);
  }
  return flags;
}
