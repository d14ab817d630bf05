/**
 * Two messages with one business key, sent in separate batches (the second once the first's execution ended): both
 * reach the workflow; the first is applied (it owns the ledger's claim), the second is acknowledged as its duplicate
 * (not handed back, not quarantined, the claim still the first's).
 */
import { GetItemCommand } from "@aws-sdk/client-dynamodb";
import { canonicalJson } from "@effectively-once/contract";
import { LedgerAttribute } from "@effectively-once/contract";
import { OutputName } from "@effectively-once/contract";
import jsonata from "jsonata";
import { nthDelivery, type Delivery } from "../observe";
import type { Probe } from "../types";
import { peekDlq, probeBody, send } from "./messages";

const fate = (d: Delivery) => (d.end?.handedBack ? `handed back (${d.end.type})` : "acknowledged");

export const sameKeyProbe: Probe = {
  id: "same-key-batches",
  title: "Two same-key messages in separate batches",
  protects: "no double effect: a resend is acknowledged as a duplicate, the function is not called again",
  needsStack: true,
  calls: (stack) => [
    { service: "SQS", action: "SendMessage", count: 2, resource: stack.names.queue, why: "the same body twice, the second after the first's execution ended" },
    { service: "CloudWatch Logs", action: "FilterLogEvents", count: 20, resource: stack.names.workflowLogGroup, why: "each message's execution (polled)" },
    { service: "DynamoDB", action: "GetItem", count: 1, resource: stack.names.ledgerTable, why: "the key's claim: owner and status" },
    { service: "SQS", action: "ReceiveMessage", count: 1, resource: stack.names.dlq, why: "peek (visibility 0): is the second quarantined?" },
  ],
  async run(context) {
    const bodyObject = probeBody(context, 2);
    const body = JSON.stringify(bodyObject);
    const first = await send(context, body);
    const one = await nthDelivery(context, first, 1, 300_000);
    const second = await send(context, body);
    const two = await nthDelivery(context, second, 1, 300_000);
    const parts = (await jsonata(context.stack.keyExpression).evaluate(bodyObject)) as unknown;
    const key = canonicalJson(Array.isArray(parts) ? parts : [parts]);
    const item = await context.clients.dynamodb.send(
      new GetItemCommand({ TableName: String(context.outputs[OutputName.LedgerTable]), Key: { [LedgerAttribute.Key]: { S: key }, [LedgerAttribute.Operation]: { S: String(context.outputs[OutputName.Operation]) } }, ConsistentRead: true }),
    );
    const owner = item.Item?.[LedgerAttribute.Owner]?.S;
    const quarantined = (await peekDlq(context, (b) => b === body)).length > 0;
    return {
      facts: [
        ["separate executions", String(one.executionArn !== two.executionArn)],
        ["first", fate(one)],
        ["second", fate(two)],
        ["ledger status", item.Item?.[LedgerAttribute.Status]?.S ?? "no item"],
        ["claim owner", owner === first ? "the first" : owner === second ? "the second" : String(owner)],
        ["second quarantined", String(quarantined)],
      ],
    };
  },
};
