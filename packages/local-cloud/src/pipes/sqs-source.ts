import {
  ChangeMessageVisibilityBatchCommand,
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
} from "@aws-sdk/client-sqs";
import type { ChangeMessageVisibilityBatchResult, DeleteMessageBatchResult, GetQueueAttributesResult, Message, ReceiveMessageResult, SQSClient } from "@aws-sdk/client-sqs";
import { PipeLimits } from "./constants";
import type { DeleteFailure, SqsSender } from "./types";
import type { SqsRecord } from "@effectively-once/contract/pipe-filter";

/** The SQS calls of the pipe (the pipe role's ReceiveMessage, DeleteMessage, GetQueueAttributes). */
export interface SqsSource {
  receive(max: number, waitTimeSeconds: number, signal: AbortSignal): Promise<Message[]>;
  /** Deletes the records; returns the ids deleted and the per-message failures. Never throws. */
  delete(records: readonly SqsRecord[]): Promise<{ deleted: string[]; failures: DeleteFailure[] }>;
  /** Sets the visibility timeout of the records (local deviation only). Returns how many failed. */
  changeVisibility(records: readonly SqsRecord[], seconds: number): Promise<{ failed: number; error?: string }>;
  /** Visible + in flight + delayed messages. */
  approximateDepth(): Promise<number>;
}

export function createSqsSource(client: SQSClient | SqsSender, queueUrl: string): SqsSource {
  const sqs = client as SqsSender;
  return {
    async receive(max, waitTimeSeconds, signal) {
      const result: ReceiveMessageResult = await sqs.send(
        new ReceiveMessageCommand({
          QueueUrl: queueUrl,
          MaxNumberOfMessages: max,
          WaitTimeSeconds: waitTimeSeconds,
          AttributeNames: ["All"],
          MessageSystemAttributeNames: ["All"],
          MessageAttributeNames: ["All"],
        }),
        { abortSignal: signal },
      );
      return result.Messages ?? [];
    },

    async delete(records) {
      const deleted: string[] = [];
      const failures: DeleteFailure[] = [];
      for (const chunk of chunks(records, PipeLimits.SQS_MAX_PER_CALL)) {
        try {
          const result: Partial<DeleteMessageBatchResult> = await sqs.send(
            new DeleteMessageBatchCommand({
              QueueUrl: queueUrl,
              Entries: chunk.map((r, i) => ({ Id: String(i), ReceiptHandle: r.receiptHandle })),
            }),
          );
          for (const ok of result.Successful ?? []) deleted.push(chunk[Number(ok.Id)].messageId);
          for (const failed of result.Failed ?? []) {
            failures.push({ messageId: chunk[Number(failed.Id)].messageId, code: failed.Code ?? "Unknown", message: failed.Message });
          }
        } catch (error) {
          const code = (error as Error).name || "Error";
          for (const r of chunk) failures.push({ messageId: r.messageId, code, message: (error as Error).message });
        }
      }
      return { deleted, failures };
    },

    async changeVisibility(records, seconds) {
      let failed = 0;
      let lastError: string | undefined;
      for (const chunk of chunks(records, PipeLimits.SQS_MAX_PER_CALL)) {
        try {
          const result: Partial<ChangeMessageVisibilityBatchResult> = await sqs.send(
            new ChangeMessageVisibilityBatchCommand({
              QueueUrl: queueUrl,
              Entries: chunk.map((r, i) => ({ Id: String(i), ReceiptHandle: r.receiptHandle, VisibilityTimeout: seconds })),
            }),
          );
          failed += result.Failed?.length ?? 0;
          if (result.Failed?.length) lastError = result.Failed[0].Message ?? result.Failed[0].Code;
        } catch (error) {
          failed += chunk.length;
          lastError = (error as Error).message;
        }
      }
      return { failed, error: lastError };
    },

    async approximateDepth() {
      const names = ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible", "ApproximateNumberOfMessagesDelayed"] as const;
      const result: GetQueueAttributesResult = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: [...names] }));
      return names.reduce((sum, name) => sum + Number(result.Attributes?.[name] ?? 0), 0);
    },
  };
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
