/**
 * One invocation per batch (`batchInvocation`, standard mode's default): what it needs to be safe, refused at synth.
 * The timing it changes lives with its concept: the execution's worst case in timing.ts, the lease in invariants.ts,
 * its default execution timeout with the other defaults in resolve-props.ts.
 */
import {
  batchRecordEnvelopeBytes,
  MAX_BUSINESS_KEY_BYTES,
  RECORD_BYTES_PER_MESSAGE_BYTE,
  sourceQueueMaxBytes,
  SYNC_EXECUTION_INPUT_BYTES,
  worstBatchAnswerBytes,
  worstBatchInvocationInputBytes,
} from "@effectively-once/contract";
import type { PropRule } from "./prop-rules";
import { thousands as n } from "./number-text";

/**
 * Step Functions' quota on a task's input and result, and on a state's data: 256 KiB of UTF-8 ("Service quotas",
 * Step Functions: "Maximum input or output size for a task, state, or execution"). An input over it fails the
 * execution with States.DataLimitExceeded, which a Catch on States.ALL does not handle, and every receive would fail
 * alike; so both the batch's input and its answer are bounded here, at their worst.
 */
const STATE_DATA_BYTES = SYNC_EXECUTION_INPUT_BYTES;

export const BATCH_RULES: readonly PropRule[] = [
  {
    name: "batchInvocation.standardOnly",
    check: (p) =>
      p.fifo && p.batchInvocation
        ? {
            prop: "batchInvocation",
            value: true,
            reason: "is not available in FIFO mode: a message group's records run one after another, each applied before the next is claimed, so each keeps its own invocation",
            fix: "remove batchInvocation (FIFO mode invokes per record), or set fifo: false",
          }
        : undefined,
  },
  {
    name: "batchInvocation.dataLimit",
    after: ["batchInvocation.standardOnly", "batchSize", "maxMessageBytes"],
    check: (p) => {
      if (!p.batchInvocation || p.fifo) return undefined;
      const envelope = batchRecordEnvelopeBytes(MAX_BUSINESS_KEY_BYTES, RECORD_BYTES_PER_MESSAGE_BYTE);
      const queueMax = sourceQueueMaxBytes(p.maxMessageBytes);
      const input = worstBatchInvocationInputBytes(p.batchSize, queueMax, envelope, RECORD_BYTES_PER_MESSAGE_BYTE);
      const answer = worstBatchAnswerBytes(p.batchSize);
      const problems = [];
      if (input > STATE_DATA_BYTES) {
        problems.push({
          prop: "maxMessageBytes",
          value: p.maxMessageBytes,
          reason:
            `is too large for one invocation per batch of ${p.batchSize}: its input can reach batchSize × (${RECORD_BYTES_PER_MESSAGE_BYTE} × ${n(queueMax)} + ${n(envelope)} record envelope) and the call = ${n(input)} bytes, ` +
            `over Step Functions' ${n(STATE_DATA_BYTES)} for a task's input (States.DataLimitExceeded, which no Catch on States.ALL handles)`,
          fix: "lower maxMessageBytes or batchSize, or set batchInvocation: false",
        });
      }
      if (answer > STATE_DATA_BYTES) {
        problems.push({
          prop: "batchSize",
          value: p.batchSize,
          reason: `is too large for one invocation per batch: its answer can reach ${n(answer)} bytes, over Step Functions' ${n(STATE_DATA_BYTES)} for a task's result`,
          fix: "lower batchSize, or set batchInvocation: false",
        });
      }
      return problems;
    },
  },
];
