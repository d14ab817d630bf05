/**
 * `arn:aws:states:::sqs:sendMessage`: SQS SendMessage. A non-string MessageBody is sent as its JSON text.
 * Errors: `SQS.<Exception>` for modeled exceptions, `SQS.AmazonSQSException` otherwise, `SQS.SdkClientException`
 * when no HTTP answer came.
 */
import { SendMessageCommand, type SendMessageCommandInput, type SQSClient } from "@aws-sdk/client-sqs";
import { optimizedError, sdkMetadata, stripMetadata } from "./aws-errors";
import { missingClient, requireObject } from "./requests";
import type { TaskHandler } from "./types";

/** Names the Java SDK models (v3 JSON-protocol names such as `QueueDoesNotExist` gain the `Exception` suffix). */
const MODELED = new Set([
  "QueueDoesNotExistException",
  "InvalidMessageContentsException",
  "UnsupportedOperationException",
  "InvalidSecurityException",
  "KmsAccessDeniedException",
  "KmsDisabledException",
  "KmsInvalidKeyUsageException",
  "KmsInvalidStateException",
  "KmsNotFoundException",
  "KmsOptInRequiredException",
  "KmsThrottledException",
  "RequestThrottledException",
  "InvalidAddressException",
]);

const PARAMETERS = ["QueueUrl", "MessageBody", "MessageAttributes", "DelaySeconds", "MessageGroupId", "MessageDeduplicationId", "MessageSystemAttributes"];

function sqsError(err: unknown) {
  return optimizedError(err, {
    prefix: "SQS",
    service: "AmazonSQS",
    modeled: MODELED,
    generic: "AmazonSQSException",
    normalize: (n) => (n.endsWith("Exception") ? n : `${n}Exception`),
  });
}

export function sqsSendMessageHandler(): TaskHandler {
  return {
    resourceType: "sqs",
    resource: "sendMessage",
    async invoke(parameters, call) {
      const client: SQSClient | undefined = call.integrations.sqs;
      if (!client) throw missingClient(call.resourceArn, "integrations.sqs", "--sqs-endpoint or AWS_ENDPOINT_URL_SQS");
      const p = requireObject(parameters, call.resourceArn);
      const input: Record<string, unknown> = {};
      for (const key of PARAMETERS) if (p[key] !== undefined) input[key] = p[key];
      if (input.MessageBody !== undefined && typeof input.MessageBody !== "string") input.MessageBody = JSON.stringify(input.MessageBody);
      let out: object;
      try {
        // The parameters were checked against PARAMETERS above; AWS validates their values as the SDK sends them.
        out = await client.send(new SendMessageCommand(input as unknown as SendMessageCommandInput), { abortSignal: call.signal });
      } catch (err) {
        if (call.signal.aborted) throw err;
        throw sqsError(err);
      }
      const meta = (out as { $metadata?: { httpStatusCode?: number; requestId?: string } }).$metadata;
      return { ...stripMetadata(out), ...sdkMetadata(meta, "application/x-amz-json-1.0") };
    },
  };
}
