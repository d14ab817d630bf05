import type { AlarmTransition } from "../alarms";
import { formatTable } from "../observe";

/** How far `npm start` moves the cloud's clock after a run so that the run's minutes are whole periods. */
export const ALARM_SETTLE_SECONDS = 120;

/**
 * The alarms part of `npm start`'s summary: which alarms fired (went to ALARM) during the run, when on the cloud's
 * clock, why (CloudWatch's kind of reason) and whom they notified; then the alarms in ALARM now.
 */
export function alarmSummary(fired: readonly AlarmTransition[], inAlarm: readonly string[]): string {
  const lines = [`Alarms that fired (${fired.length}), evaluated on the local clock as CloudWatch would (packages/local-cloud/src/alarms/README.md):`];
  lines.push(
    fired.length === 0
      ? "  (none)"
      : formatTable(
          fired.map((t) => [t.alarm, new Date(t.at).toISOString().slice(11, 16), t.reason, t.actions.length ? t.actions.join(", ") : "no action: nobody notified"]),
          ["alarm", "at", "why", "notified"],
          ["left", "left", "left", "left"],
        ),
  );
  lines.push(`In ALARM now: ${inAlarm.length ? inAlarm.join(", ") : "none"}`);
  return lines.join("\n");
}
