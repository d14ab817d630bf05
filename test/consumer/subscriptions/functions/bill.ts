// The deployed function: the package's handler wrapper around the team's own side effect, a PutItem into its
// invoices table (no effect journal). The write is conditional on the invoice id, so a retry cannot bill twice.
import { ConditionalCheckFailedException, DynamoDBClient, PutItemCommand } from "@aws-sdk/client-dynamodb";
import { createPipelineHandler, PermanentError } from "@effectively-once/pipeline/handler";

interface Subscription {
  readonly accountId: string;
  readonly period: string;
  readonly plan: string;
  readonly amountCents: number;
  readonly [field: string]: unknown;
}

export const handler = createPipelineHandler<Subscription, { invoiceId: string }, DynamoDBClient>({
  setup: () => new DynamoDBClient({}),
  sideEffect: async (event, { resources: dynamodb }) => {
    const { accountId, period, plan, amountCents } = event.payload;
    if (plan === "cancelled") throw new PermanentError(`account ${accountId} has no active plan to bill`);
    const invoiceId = `${accountId}/${period}`;
    try {
      await dynamodb.send(
        new PutItemCommand({
          TableName: process.env.INVOICES_TABLE,
          Item: { invoiceId: { S: invoiceId }, businessKey: { S: event.businessKey }, plan: { S: plan }, amountCents: { N: String(amountCents) }, messageId: { S: event.messageId } },
          ConditionExpression: "attribute_not_exists(invoiceId)",
        }),
      );
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
    return { invoiceId };
  },
});
