import {
  DLQ_MAX_MESSAGE_BYTES,
  largestBatchSize,
  largestMaxMessageBytes,
  QUARANTINE_ATTRIBUTE_BYTES,
  RECORD_BYTES_PER_MESSAGE_BYTE,
  RECORD_ENVELOPE_BYTES,
  REDRIVE_ATTRIBUTE_BYTES,
  sourceQueueMaxBytes,
  SYNC_EXECUTION_INPUT_BYTES,
  worstBatchInputBytes,
} from "@effectively-once/contract";
import type { PropRule } from "./prop-rules";
import { thousands as n } from "./number-text";

/**
 * Sizes counted in bytes, as AWS counts them: a whole batch of the largest messages the source queue accepts, in
 * any script, must fit the input StartSyncExecution accepts (limits.ts states the worst case of the pipe's record),
 * and a quarantined copy with its attributes must fit the DLQ.
 */
export const BYTE_RULES: readonly PropRule[] = [
  {
    name: "maxMessageBytes.batchInput",
    after: ["batchSize", "maxMessageBytes"],
    check: (p) => {
      const queueMax = sourceQueueMaxBytes(p.maxMessageBytes);
      const worst = worstBatchInputBytes(p.batchSize, queueMax);
      if (worst <= SYNC_EXECUTION_INPUT_BYTES) return undefined;
      const fitting = largestMaxMessageBytes(p.batchSize);
      const batch = largestBatchSize(p.maxMessageBytes);
      const fixes = [fitting >= 1024 ? `lower maxMessageBytes to ${fitting} or less` : "", batch > 0 ? `lower batchSize to ${batch} or less` : ""].filter(Boolean);
      return {
        prop: "maxMessageBytes",
        value: p.maxMessageBytes,
        reason:
          `is too large for batchSize ${p.batchSize}: a batch can reach batchSize × (${RECORD_BYTES_PER_MESSAGE_BYTE} × (maxMessageBytes + ${REDRIVE_ATTRIBUTE_BYTES} redrive room) + ${n(RECORD_ENVELOPE_BYTES)} record envelope) + ${p.batchSize + 1} = ` +
          `${p.batchSize} × (${RECORD_BYTES_PER_MESSAGE_BYTE} × ${n(queueMax)} + ${n(RECORD_ENVELOPE_BYTES)}) + ${p.batchSize + 1} = ${n(worst)} bytes of UTF-8, over the ${n(SYNC_EXECUTION_INPUT_BYTES)} StartSyncExecution accepts; ` +
          "a batch of valid messages in a multi-byte script (Cyrillic, CJK, emoji) or full of escaped characters would be refused whole, on every receive",
        fix: `${fixes.join(", or ")} (see docs/construct.md for the table)`,
      };
    },
  },
  {
    name: "maxMessageBytes.quarantineRoom",
    after: ["maxMessageBytes"],
    check: (p) => {
      const most = DLQ_MAX_MESSAGE_BYTES - QUARANTINE_ATTRIBUTE_BYTES - REDRIVE_ATTRIBUTE_BYTES;
      return p.maxMessageBytes > most ? { prop: "maxMessageBytes", value: p.maxMessageBytes, reason: "leaves no room for the quarantine's attributes in the DLQ", fix: `use at most ${most}` } : undefined;
    },
  },
];
