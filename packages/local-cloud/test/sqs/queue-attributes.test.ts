import { createQueueAttributesFromTerraform } from "../../src/sqs";
import { InvalidQueueConfigError } from "../../src/sqs/errors";
import type { TerraformSqsQueue } from "../../src/sqs";

describe("Function: createQueueAttributesFromTerraform", () => {
  it("maps Terraform argument names and types onto CreateQueue attribute strings", () => {
    const attributes = createQueueAttributesFromTerraform({
      name: "orders",
      visibility_timeout_seconds: 60,
      message_retention_seconds: 345_600,
      sqs_managed_sse_enabled: true,
      fifo_queue: false,
      redrive_policy: '{"deadLetterTargetArn":"arn:aws:sqs:us-east-1:000000000000:dlq","maxReceiveCount":5}',
    });
    expect(attributes).toEqual({
      VisibilityTimeout: "60",
      MessageRetentionPeriod: "345600",
      SqsManagedSseEnabled: "true",
      FifoQueue: "false",
      RedrivePolicy: '{"deadLetterTargetArn":"arn:aws:sqs:us-east-1:000000000000:dlq","maxReceiveCount":5}',
    });
  });

  it.each<[TerraformSqsQueue, RegExp]>([
    [{ redrive_policy: '{"deadLetterTargetArn":"${aws_sqs_queue.dlq.arn}","maxReceiveCount":5}' }, /redrive_policy still holds a Terraform reference/],
    [{ redrive_policy: "not json" }, /redrive_policy must be a JSON string/],
    [{ redrive_policy: '{"deadLetterTargetArn":"arn:aws:sqs:us-east-1:0:dlq","maxReceiveCount":0}' }, /maxReceiveCount must be a whole number/],
    [{ visibility_timeout_seconds: 1.5 }, /visibility_timeout_seconds must be a whole number/],
    [{ sqs_managed_sse_enabled: "yes" as unknown as boolean }, /sqs_managed_sse_enabled must be true or false/],
  ])("rejects bad input with the field and the fix (%#)", (queue, message) => {
    expect(() => createQueueAttributesFromTerraform(queue)).toThrow(InvalidQueueConfigError);
    expect(() => createQueueAttributesFromTerraform(queue)).toThrow(message);
  });
});
