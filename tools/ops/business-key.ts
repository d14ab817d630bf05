import jsonata from "jsonata";
import { PAYMENTS_BUSINESS_KEY } from "../../examples/payments/identity";
import { deriveBusinessKey } from "../../src/contract/business-key";
import { UsageError } from "./errors";

/**
 * The business key expression of the payments stack (`examples/payments/stack.ts`), evaluated on the parsed
 * body as the state machine does. Only needed for messages without a `businessKey` attribute: those the queue's
 * redrive moved after maxReceiveCount. A stack with another expression passes it with `--key-expression`.
 */
export const DEFAULT_KEY_EXPRESSION: string = PAYMENTS_BUSINESS_KEY.expression;

/** Evaluates a business key expression on a message body; undefined when the body is not a JSON object or the key is empty. */
export type KeyDeriver = (body: string) => Promise<string | undefined>;

export function keyDeriver(expression: string = DEFAULT_KEY_EXPRESSION): KeyDeriver {
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
    try {
      // The state machine's rule: canonical JSON of the key parts.
      return await deriveBusinessKey(expression, parsed);
    } catch {
      return undefined;
    }
  };
}
