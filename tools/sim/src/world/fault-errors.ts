/** Errors the simulation injects, as the SDK surfaces them. */
import type { SQSClient } from "@aws-sdk/client-sqs";
import { DynamoError } from "./dynamo";

/** Transient ledger errors, one per entry of the ledger states' Retry (unmodeled codes and I/O failures included). */
const LEDGER_BLIPS: [string, number | undefined][] = [
  ["ProvisionedThroughputExceededException", 400],
  ["RequestLimitExceeded", 400],
  ["InternalServerError", 500],
  ["ThrottlingException", 400],
  ["Error", undefined],
];

/**
 * Each message meets its own run of transient errors, one name per blipped attempt; `pick` (the message's index plus
 * the scenario's seed) chooses where the run starts, so the first message of a scenario meets every name too.
 */
export function ledgerBlip(pick: number, attempt: number): Error {
  const [name, status] = LEDGER_BLIPS[(pick + attempt - 1) % LEDGER_BLIPS.length];
  return status === undefined ? new Error("connect ECONNRESET (injected)") : new DynamoError(name, `${name} (injected, transient)`, status);
}

/** The state machine's SQS client, refusing the DLQ sends of the copies `refused` names (by originalMessageId). */
export function quarantineFaults(client: SQSClient, dlqUrl: string, refused: (messageId: string) => boolean): SQSClient {
  return {
    send: (command: { input: { QueueUrl?: string; MessageAttributes?: Record<string, { StringValue?: string }> } }, options?: object) => {
      const original = command.input.MessageAttributes?.originalMessageId?.StringValue;
      if (command.input.QueueUrl === dlqUrl && original !== undefined && refused(original)) {
        return Promise.reject(Object.assign(new Error("Service is unavailable (injected)"), { name: "ServiceUnavailable", $metadata: { httpStatusCode: 503 } }));
      }
      return (client.send as (c: unknown, o?: object) => Promise<unknown>)(command, options);
    },
  } as unknown as SQSClient;
}
