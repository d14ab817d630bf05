import { deriveBusinessKey } from "@effectively-once/contract";
import { payloadHash } from "@effectively-once/contract";
import { effectKey } from "@effectively-once/contract";
import { OutputName } from "@effectively-once/contract";

/** What a tool needs to know about a stack's messages, read from its outputs (`IdempotentPipeline` writes them). */
export interface StreamContract {
  /** JSONata over the parsed body yielding the key's parts. */
  readonly keyExpression: string;
  /** The body fields the key reads (`business_key_fields`). */
  readonly keyFields: readonly string[];
  /** The fields covered by the payload hash (`payload_fields`). */
  readonly payloadFields: readonly string[];
  /** The ledger sort key, the intent (`operation`). */
  readonly operation: string;
}

const OUTPUTS = [OutputName.BusinessKeyExpression, OutputName.BusinessKeyFields, OutputName.PayloadFields, OutputName.Operation] as const;

function jsonList(outputs: Readonly<Record<string, unknown>>, name: string): string[] {
  const value = outputs[name];
  const parsed: unknown = typeof value === "string" ? JSON.parse(value) : value;
  if (!Array.isArray(parsed) || !parsed.every((v) => typeof v === "string")) throw new Error(`output ${name} is not a JSON list of field names: ${String(value)}`);
  return parsed;
}

/** Reads the contract from a stack's outputs; throws naming the missing output (a stack synthesized by an older version). */
export function streamContractOf(outputs: Readonly<Record<string, unknown>>): StreamContract {
  const missing = OUTPUTS.filter((name) => outputs[name] === undefined || outputs[name] === "");
  if (missing.length > 0) {
    throw new Error(`the stack's outputs lack ${missing.join(", ")}: synthesize it again with this version of IdempotentPipeline`);
  }
  return {
    keyExpression: String(outputs[OutputName.BusinessKeyExpression]),
    keyFields: jsonList(outputs, OutputName.BusinessKeyFields),
    payloadFields: jsonList(outputs, OutputName.PayloadFields),
    operation: String(outputs[OutputName.Operation]),
  };
}

/** What a producer knows of one body: its effect key and its payload's hash; absent when the body has none. */
export interface BodyLabel {
  /** The effect key the pipeline derives from the body (`<businessKey>#<operation>`). */
  readonly effectKey?: string;
  /** The hash of the body's payload fields. */
  readonly fingerprint?: string;
}

/** Labels a body as the state machine would key it (undefined parts when it is not a valid object). */
async function labelBody(body: string, contract: StreamContract): Promise<BodyLabel> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return {};
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return {};
  const object = parsed as Record<string, unknown>;
  if (contract.keyFields.some((field) => object[field] === undefined)) return {};
  let key: string | undefined;
  try {
    key = await deriveBusinessKey(contract.keyExpression, object);
  } catch {
    return {};
  }
  if (key === undefined) return {};
  let fingerprint: string | undefined;
  try {
    fingerprint = payloadHash(object, contract.payloadFields);
  } catch {
    fingerprint = undefined;
  }
  return { effectKey: effectKey(key, contract.operation), fingerprint };
}

/** Labels every message of a stream (keeps order and every other field). */
export async function labelMessages<M extends { readonly body: string }>(messages: readonly M[], contract: StreamContract): Promise<(M & BodyLabel)[]> {
  return Promise.all(messages.map(async (m) => ({ ...m, ...(await labelBody(m.body, contract)) })));
}

