import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CloudWatchClient } from "@aws-sdk/client-cloudwatch";
import { synthStack } from "@effectively-once/local-cloud/stack";
import { alarmNamePrefix, NOT_EVALUATED_LOCALLY, readAlarmStates } from "../src/alarm-states";
import type { OpsContext } from "../src";

const ctxWith = (ledger: string) => ({ outputs: { ledger_table_name: ledger }, targetLabel: "test" }) as unknown as OpsContext;

describe("Function: alarmNamePrefix", () => {
  it("finds every alarm the construct synthesizes by the prefix it reads off the ledger table's name", () => {
    // Arrange
    const dir = mkdtempSync(join(tmpdir(), "ops-alarms-"));
    try {
      const { stackFile } = synthStack({ stackName: "alarms-test", region: "us-east-1", namePrefix: "acme-orders" }, { outdir: dir });
      const json = JSON.parse(readFileSync(stackFile, "utf8")) as { resource: Record<string, Record<string, Record<string, unknown>>> };
      const [ledger] = Object.values(json.resource.aws_dynamodb_table!).map((t) => t.name as string).filter((n) => n.endsWith("-ledger"));
      const alarms = Object.values(json.resource.aws_cloudwatch_metric_alarm ?? {}).map((a) => a.alarm_name as string);

      // Act
      const prefix = alarmNamePrefix(ctxWith(ledger!));

      // Assert
      expect(prefix).toBe("acme-orders-");
      expect(alarms.length).toBeGreaterThan(0);
      for (const name of alarms) expect(name.startsWith(prefix)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("Function: readAlarmStates", () => {
  it("says the alarms are not evaluated when there is no CloudWatch (the local cloud)", async () => {
    expect(await readAlarmStates(ctxWith("p-ledger"), undefined)).toEqual({ evaluated: false, note: NOT_EVALUATED_LOCALLY });
  });

  it("asks DescribeAlarms by the stack's prefix, follows every page, and puts ALARM first", async () => {
    // Arrange: DescribeAlarms answers in the SDK's shapes, two pages.
    const requests: Record<string, unknown>[] = [];
    const pages = [
      { MetricAlarms: [{ AlarmName: "p-dlq-depth", StateValue: "OK", StateUpdatedTimestamp: new Date(1_000) }], NextToken: "t1" },
      { MetricAlarms: [{ AlarmName: "p-dlq-oldest", StateValue: "ALARM", StateReason: "Threshold Crossed" }], CompositeAlarms: [] },
    ];
    const cloudwatch = { send: async (command: { input: Record<string, unknown> }) => (requests.push(command.input), pages[requests.length - 1]) } as unknown as CloudWatchClient;

    // Act
    const report = await readAlarmStates(ctxWith("p-ledger"), cloudwatch);

    // Assert
    expect(requests).toEqual([
      expect.objectContaining({ AlarmNamePrefix: "p-", AlarmTypes: ["MetricAlarm", "CompositeAlarm"], NextToken: undefined }),
      expect.objectContaining({ AlarmNamePrefix: "p-", NextToken: "t1" }),
    ]);
    expect(report).toEqual({
      evaluated: true,
      prefix: "p-",
      alarms: [
        { name: "p-dlq-oldest", state: "ALARM", reason: "Threshold Crossed" },
        { name: "p-dlq-depth", state: "OK", since: 1_000 },
      ],
    });
  });
});
