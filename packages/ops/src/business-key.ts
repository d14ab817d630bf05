import jsonata from "jsonata";
import { deriveBusinessKey, duplicateMemberName } from "@effectively-once/contract";
import { UsageError } from "./errors";
import { OutputName } from "@effectively-once/contract";

/**
 * The business key expression to key DLQ messages with: `--key-expression`, else the stack's output
 * `business_key_expression` (the construct writes it). Only needed for messages without a `businessKey` attribute:
 * those the queue's redrive moved after maxReceiveCount.
 */
export function keyExpressionOf(outputs: Readonly<Record<string, unknown>>, option?: string): string | undefined {
  if (option !== undefined) return option;
  const fromStack = outputs[OutputName.BusinessKeyExpression];
  return typeof fromStack === "string" && fromStack !== "" ? fromStack : undefined;
}

/**
 * Evaluates a business key expression on a message body; undefined when the body is not a JSON object, holds a member
 * name twice in one object (the Decode step refuses it as `invalid-message`; JSON.parse would keep the last one and
 * could key it by a value the state machine never reads), or the key is empty.
 */
export type KeyDeriver = (body: string) => Promise<string | undefined>;

export function keyDeriver(expression: string | undefined): KeyDeriver {
  // A stack from before the contract outputs, and no --key-expression: such messages stay without a key.
  if (expression === undefined) return async () => undefined;
  try {
    jsonata(expression);
  } catch (error) {
    throw new UsageError(`--key-expression "${expression}" is not a JSONata expression: ${(error as Error).message}`, { cause: error });
  }
  return async (body) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return undefined;
    }
    if (duplicateMemberName(body) !== undefined) return undefined;
    try {
      // The state machine's rule: canonical JSON of the key parts.
      return await deriveBusinessKey(expression, parsed);
    } catch {
      return undefined;
    }
  };
}
