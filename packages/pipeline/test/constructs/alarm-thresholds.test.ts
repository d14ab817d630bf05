/**
 * The alarms' thresholds come from the stack's settings, and docs/operations.md explains every alarm the construct
 * creates. The `dlq-expiry` threshold counts the time a moved message already spent in the source queue: a standard
 * queue's redrive keeps the first enqueue time, while the DLQ's age metric counts from the move.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { dlqExpiryDeadlineText, dlqExpiryThresholdSeconds, durationThresholdMs, IN_FLIGHT_THRESHOLD } from "../../src/constructs/alarm-thresholds";
import { resolveProps } from "../../src/constructs/resolve-props";
import { ALARM_IDS } from "../../src/constructs/resource-names";
import { BASE_PROPS, propProblems } from "./support/prop-problems";

const DAY = 86400;

describe("Function: dlqExpiryThresholdSeconds", () => {
  it("fires at 14 d − 4 d − 1 d = 9 days in a standard DLQ, and at 13 days in a FIFO one (the move resets the time)", () => {
    expect(dlqExpiryThresholdSeconds(resolveProps(BASE_PROPS))).toBe(9 * DAY);
    expect(dlqExpiryThresholdSeconds(resolveProps({ ...BASE_PROPS, fifo: true }))).toBe(13 * DAY);
    expect(dlqExpiryDeadlineText(resolveProps(BASE_PROPS))).toBe(
      "fires when the oldest DLQ message has waited 9 d in the DLQ; SQS deletes it 14 d after its first enqueue; a message the redrive moved may have waited up to 4 d in the source queue first, and keeps that time: it is gone at the latest 1 d after this alarm fires",
    );
  });

  it("keeps an hour's threshold when the retentions leave less than a day's warning", () => {
    const p = resolveProps({ ...BASE_PROPS, messageRetentionSeconds: 4 * DAY, deadLetterRetentionSeconds: 5 * DAY });
    expect(p.deadLetterExpiryWarningSeconds).toBe(DAY - 3600);
    expect(dlqExpiryThresholdSeconds(p)).toBe(3600);
    expect(propProblems({ messageRetentionSeconds: 4 * DAY, deadLetterRetentionSeconds: 5 * DAY })).toEqual([]);
  });

  it("refuses a warning that leaves under an hour, with the arithmetic and the fix", () => {
    expect(propProblems({ deadLetterExpiryWarningSeconds: 10 * DAY })).toEqual([
      {
        prop: "deadLetterExpiryWarningSeconds",
        value: 10 * DAY,
        reason: `leaves the dlq-expiry alarm a threshold of deadLetterRetentionSeconds 1209600 − messageRetentionSeconds 345600 (a moved message keeps its first enqueue time) − 864000 = 0 s, under 3600 s: it would fire as soon as a message arrives`,
        fix: "lower deadLetterExpiryWarningSeconds to at most 860400, or raise deadLetterRetentionSeconds",
      },
    ]);
    expect(propProblems({ plannedPartialBatchRatio: 0 })).toEqual([expect.objectContaining({ prop: "plannedPartialBatchRatio", value: 0 })]);
  });

  it("derives the duration and in-flight thresholds from the function's timeout and SQS's limit", () => {
    expect(durationThresholdMs(resolveProps({ ...BASE_PROPS, function: { entry: "x.ts", timeoutSeconds: 30 } }))).toBe(24_000);
    expect(IN_FLIGHT_THRESHOLD).toBe(96_000);
  });
});

describe("docs/operations.md: the alarms", () => {
  const doc = readFileSync(join(__dirname, "../../../../docs/operations.md"), "utf8");
  it.each([...ALARM_IDS])("explains %s under its own heading (each alarm's description links to it)", (id) => {
    expect(doc.split("\n")).toContain(`#### ${id}`);
  });
});
