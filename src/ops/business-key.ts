import jsonata from "jsonata";
import { PAYMENTS_BUSINESS_KEY } from "../stacks/payments-identity";
import { UsageError } from "./errors";

/**
 * The business key expression of the payments stack (`src/stacks/payments-stack.ts`), evaluated on the parsed
 * body as the state machine does. Only needed for messages without a `businessKey` attribute: those the queue's
 * redrive moved after maxReceiveCount. A stack with another expression passes it with `--key-expression`.
 */
export const DEFAULT_KEY_EXPRESSION: string = PAYMENTS_BUSINESS_KEY.expression;

/** Evaluates a business key expression on a message body; undefined when the body is not a JSON object or the key is empty. */
export type KeyDeriver = (body: string) => Promise<string | undefined>;

export function keyDeriver(expression: string = DEFAULT_KEY_EXPRESSION): KeyDeriver {
  let compiled: ReturnType<typeof jsonata>;
  try {
    compiled = jsonata(expression);
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
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return undefined;
    try {
      const value: unknown = await compiled.evaluate(parsed);
      if (value === undefined || value === null || value === "") return undefined;
      return typeof value === "string" ? value : JSON.stringify(value);
    } catch {
      return undefined;
    }
  };
}
