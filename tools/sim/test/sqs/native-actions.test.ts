/**
 * SQS's own operator actions in the simulation: the console's "Start DLQ redrive" (StartMessageMoveTask) and a purge.
 * Under the default props the queue policies the construct renders refuse both, and the pipeline keeps every
 * promise; under the props that opt out, the breaks come back and the model sets them aside by the opt-out's name.
 * Before the queue policies existed (no policy on either queue), the first two scenarios broke the guarantee: the
 * resend moved on day 16 was charged a second time, and the purged message was lost.
 */
import { SendMessageCommand, StartMessageMoveTaskCommand, ReceiveMessageCommand } from "@aws-sdk/client-sqs";
import { checkScenario, oracleConfig } from "../../src/fuzz/search";
import { OptOut } from "../../src/oracle/opt-outs";
import { violations, type Violation } from "../../src/oracle/model";
import { runScenario } from "../../src/run";
import { Fate, FaultKind, type Scenario } from "../../src/scenario/shape";
import { settingsFor, SIM_NAMES } from "../../src/settings";
import { SimSqs } from "../../src/sqs/service";
import { VirtualClock } from "../../src/clock/virtual-clock";
import { queuePolicyDocument, GuardedAction } from "@effectively-once/contract";

const EIGHT_DAYS = 8 * 86_400_000;
const body = JSON.stringify({ tenantId: "t", orderId: "o", amount: 10, currency: "EUR" });

/** Day 0 charged; day 8 a resend whose Inspect fails on every receive reaches the DLQ; day 16 an operator moves it natively. */
const MOVED_AFTER_MEMORY: Scenario = {
  seed: 0,
  pollers: 1,
  faults: [{ message: 1, kind: FaultKind.LedgerReadFail, receives: [1, 2, 3, 4, 5] }],
  ops: [{ op: "send", body }, { op: "jump", ms: EIGHT_DAYS }, { op: "send", body }, { op: "jump", ms: EIGHT_DAYS }, { op: "native-move" }, { op: "advance", ms: 60_000 }],
};

/** A message waits in the source queue while the pipe is down; an operator purges the queue. */
const PURGED_WAITING: Scenario = {
  seed: 0,
  pollers: 1,
  faults: [],
  ops: [{ op: "outage", ms: 43_200_000 }, { op: "send", body }, { op: "purge", queue: "source" }],
};

describe("Simulation: SQS's own DLQ redrive and purge", () => {
  describe("under the default props (the queue policies refuse both)", () => {
    const settings = settingsFor({});

    it("refuses the native move: the resend stays in the DLQ and the key is charged once", async () => {
      const obs = await checkScenario(settings, MOVED_AFTER_MEMORY);
      expect(obs.nativeActions).toEqual([expect.objectContaining({ action: "native-move", refused: true, messages: [] })]);
      expect(obs.charges).toHaveLength(1);
      expect(obs.messages.map((m) => m.fate)).toEqual([Fate.Acked, Fate.RetriesExhausted]);
    });

    it("refuses the purge: the waiting message is applied once", async () => {
      const obs = await checkScenario(settings, PURGED_WAITING);
      expect(obs.nativeActions).toEqual([expect.objectContaining({ action: "purge", refused: true })]);
      expect(obs.messages.map((m) => m.fate)).toEqual([Fate.Acked]);
    });
  });

  describe("under props that opt out", () => {
    /** The run's violations, and those the opt-outs set aside, by rule. */
    async function judged(overrides: Parameters<typeof settingsFor>[0], scenario: Scenario) {
      const settings = settingsFor(overrides);
      const obs = await runScenario(settings, scenario);
      const setAside: [string, Violation][] = [];
      const kept = violations(scenario, obs, { ...oracleConfig(settings), onSetAside: (rule, v) => setAside.push([rule, v]) });
      const unexcused = violations(scenario, obs, { ...oracleConfig(settings), optOuts: undefined });
      return { obs, kept, setAside, unexcused };
    }

    it("allowUnguardedDlqMoves: the moved resend is charged again, and the model sets that aside as native-moves-opted-in, not in silence", async () => {
      const { obs, kept, setAside, unexcused } = await judged({ allowUnguardedDlqMoves: true }, MOVED_AFTER_MEMORY);
      expect(obs.nativeActions).toEqual([expect.objectContaining({ refused: false, messages: [1] })]);
      expect(obs.charges).toHaveLength(2);
      expect(kept).toEqual([]);
      expect(setAside.map(([rule]) => rule)).toContain(OptOut.NativeMoves);
      expect(unexcused.some((v) => /key charged again/.test(v.what))).toBe(true);
    });

    it("allowQueuePurge: the waiting message is purged, set aside as purge-opted-in", async () => {
      const { obs, kept, setAside } = await judged({ allowQueuePurge: true }, PURGED_WAITING);
      expect(obs.messages.map((m) => m.fate)).toEqual([Fate.Purged]);
      expect(kept).toEqual([]);
      expect(setAside.map(([rule]) => rule)).toEqual([OptOut.Purge]);
    });
  });

  describe("Class: SimSqs › StartMessageMoveTask (AWS's documented semantics)", () => {
    function queues(dlqPolicy?: string) {
      const clock = new VirtualClock(1_000_000);
      const sqs = new SimSqs(clock);
      sqs.addQueue({ url: SIM_NAMES.dlqUrl, arn: SIM_NAMES.dlqArn, visibilityTimeoutSeconds: 30, retentionSeconds: 1_209_600, maxMessageBytes: 262_144, policy: dlqPolicy });
      sqs.addQueue({ url: SIM_NAMES.queueUrl, arn: SIM_NAMES.queueArn, visibilityTimeoutSeconds: 30, retentionSeconds: 345_600, maxMessageBytes: 262_144, redrive: { deadLetterUrl: SIM_NAMES.dlqUrl, maxReceiveCount: 5 } });
      return { clock, sqs, operator: sqs.clientAs(SIM_NAMES.senders.operator) };
    }

    // The copy is sent to the DLQ directly (no DeadLetterQueueSourceArn) and the task names no destination: AWS's
    // behaviour is unrecorded; here it goes to the queue whose redrive policy names the DLQ, where the local SQS fails
    // the task (packages/local-cloud/test/sqs/move-tasks.test.ts, packages/local-cloud/src/SUPPORTED.md).
    it("moves each DLQ message as a new message: new id, new SentTimestamp, receive count reset, attributes and sender kept", async () => {
      const { clock, sqs, operator } = queues();
      const attributes = { reason: { DataType: "String", StringValue: "rejected" } };
      const { MessageId } = await sqs.clientAs(SIM_NAMES.senders.stateMachine).send(new SendMessageCommand({ QueueUrl: SIM_NAMES.dlqUrl, MessageBody: body, MessageAttributes: attributes }));
      clock.jump(3_600_000);
      await operator.send(new StartMessageMoveTaskCommand({ SourceArn: SIM_NAMES.dlqArn }));
      const { Messages = [] } = await operator.send(new ReceiveMessageCommand({ QueueUrl: SIM_NAMES.queueUrl, MaxNumberOfMessages: 10 }));
      expect(Messages).toHaveLength(1);
      expect(Messages[0].MessageId).not.toBe(MessageId);
      expect(Messages[0].Body).toBe(body);
      expect(Messages[0].Attributes).toMatchObject({ SentTimestamp: String(clock.now()), ApproximateReceiveCount: "1", SenderId: SIM_NAMES.senders.stateMachine });
      expect(Messages[0].MessageAttributes).toEqual(attributes);
      expect(sqs.messages(SIM_NAMES.dlqUrl)).toEqual([]);
    });

    it("answers AccessDenied and moves nothing when the DLQ's policy denies sqs:StartMessageMoveTask to every principal", async () => {
      const { sqs, operator } = queues(queuePolicyDocument(SIM_NAMES.dlqArn, [GuardedAction.NativeMove]));
      await sqs.clientAs(SIM_NAMES.senders.stateMachine).send(new SendMessageCommand({ QueueUrl: SIM_NAMES.dlqUrl, MessageBody: body }));
      await expect(operator.send(new StartMessageMoveTaskCommand({ SourceArn: SIM_NAMES.dlqArn }))).rejects.toMatchObject({ name: "AccessDenied" });
      expect(sqs.messages(SIM_NAMES.dlqUrl)).toHaveLength(1);
      expect(sqs.messages(SIM_NAMES.queueUrl)).toEqual([]);
    });
  });
});
