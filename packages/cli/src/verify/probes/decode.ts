/**
 * The Decode step's business key and payload hash for the canonical-form vectors (docs/canonical-form.md), run with
 * TestState on the probe stack's rendered definition: AWS's own JSONata engine against the interpreter's. No deploy.
 * The vectors are built from a valid body of the team's contract: spellings that must give one key or one hash,
 * texts that must give two, and values that must be refused.
 */
import { OutputName } from "@effectively-once/contract";
import type { Fact, Probe, ProbeContext } from "../types";
import { testState } from "./test-state";

function fieldsOf(context: ProbeContext, output: string): string[] {
  try {
    return JSON.parse(String(context.stack.stack.outputs[output]?.value ?? "[]")) as string[];
  } catch {
    return [];
  }
}

/** Replaces field `name`'s value in a body's JSON text with raw JSON text (spellings JSON.stringify would normalise). */
function withRaw(body: Record<string, unknown>, name: string, raw: string): string {
  const marker = "\u0000verify-raw\u0000";
  return JSON.stringify({ ...body, [name]: marker }).replace(JSON.stringify(marker), raw);
}

/** The vectors, as [name, body text]. */
export function decodeVectors(base: Record<string, unknown>, keyField: string, payloadField: string): [string, string][] {
  const n = typeof base[payloadField] === "number" ? (base[payloadField] as number) : 1250;
  const reversed = Object.fromEntries(Object.entries(base).reverse());
  return [
    ["as written", JSON.stringify(base)],
    ["fields in reverse order", JSON.stringify(reversed)],
    [`${payloadField} as ${n}.0`, withRaw(base, payloadField, `${n}.0`)],
    [`${payloadField} as ${n.toExponential()}`, withRaw(base, payloadField, n.toExponential())],
    [`${keyField} with a separator, quote and backslash`, JSON.stringify({ ...base, [keyField]: 'a#b"\\c' })],
    [`${keyField} in NFC (café)`, JSON.stringify({ ...base, [keyField]: "caf\u00e9" })],
    [`${keyField} in NFD (café)`, JSON.stringify({ ...base, [keyField]: "cafe\u0301" })],
    [`${keyField} with an emoji and CJK`, JSON.stringify({ ...base, [keyField]: "😀世界" })],
    [`${keyField} with a lone surrogate`, withRaw(base, keyField, '"x\\ud800"')],
    [`${keyField} with U+0000`, JSON.stringify({ ...base, [keyField]: "x\u0000y" })],
    [`${payloadField} = 9007199254740993`, withRaw(base, payloadField, "9007199254740993")],
    [`${payloadField} = 0.30000000000000004`, withRaw(base, payloadField, "0.30000000000000004")],
    [`${payloadField} = 1e400`, withRaw(base, payloadField, "1e400")],
    ["a __proto__ member", withRaw(base, "__proto__", '{"polluted":true}')],
    ["not JSON", "{not json"],
  ];
}

export const decodeProbe: Probe = {
  id: "decode-vectors",
  title: "The Decode step's business key and payload hash for the canonical-form vectors (TestState)",
  protects: "one key per identity, one hash per payload: the same payload spelled differently is a duplicate; key parts never run together",
  needsStack: false,
  calls: (stack) => [{ service: "Step Functions", action: "TestState", count: 15, resource: `${stack.names.stateMachine} (definition sent inline; nothing deployed)`, why: "Decode on each canonical-form vector" }],
  async run(context) {
    const keyField = fieldsOf(context, OutputName.BusinessKeyFields)[0] ?? "id";
    const payloadField = fieldsOf(context, OutputName.PayloadFields)[0] ?? "amount";
    // A fixed run id: the vectors, and so their keys and hashes, are the same on every run and target.
    const base = context.stack.profile.unique(0, "verify-vectors", () => 0.5);
    const facts: Fact[] = [];
    for (const [name, body] of decodeVectors(base, keyField, payloadField)) {
      const answer = await testState(context, { definition: context.stack.definition, stateName: "Decode", input: JSON.stringify({ body }) });
      const out = answer.output as { key?: string | null; payloadHash?: string | null; problem?: string | null } | undefined;
      if (!out) facts.push([name, answer.text]);
      else if (out.problem) facts.push([name, `refused: ${out.problem}`]);
      else facts.push([`${name}: key`, String(out.key)], [`${name}: payloadHash`, String(out.payloadHash)]);
    }
    return { facts };
  },
};
