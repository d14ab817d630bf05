/**
 * A member name twice in one object (packages/contract/src/member-names.ts), through TestState: the Decode step of the
 * probe stack's rendered definition on bodies that hold a name twice (written alike, or once through a `\u` escape,
 * at the top or nested) and on bodies that only look so (one name in two sibling objects), and what AWS's own `$parse`
 * and `$string` do with such a body. The rule counts on `$parse` keeping one member per name (either one) and on
 * `$string` writing one `:` per kept member; which member `$parse` keeps is reported, not relied upon. No deploy.
 */
import { OutputName } from "@effectively-once/contract";
import type { Fact, Probe, ProbeContext } from "../types";
import { testState } from "./test-state";

function firstOf(context: ProbeContext, output: string, fallback: string): string {
  try {
    return (JSON.parse(String(context.stack.stack.outputs[output]?.value ?? "[]")) as string[])[0] ?? fallback;
  } catch {
    return fallback;
  }
}

/** `{"name":value` spelled as raw JSON text, appended as the body's last member. */
function withMember(body: Record<string, unknown>, rawName: string, rawValue: string): string {
  return `${JSON.stringify(body).slice(0, -1)},${rawName}:${rawValue}}`;
}

/** `\u`-escapes the first character of a name, as a producer's serializer may. */
function escapedFirst(name: string): string {
  return `"\\u${name.charCodeAt(0).toString(16).padStart(4, "0")}${JSON.stringify(name.slice(1)).slice(1)}`;
}

/** The vectors, as [name, body text]: the first four hold a name twice, the last two do not. */
export function duplicateVectors(base: Record<string, unknown>, keyField: string, payloadField: string): [string, string][] {
  const other = typeof base[payloadField] === "number" ? (base[payloadField] as number) + 800 : 900;
  return [
    [`${payloadField} twice`, withMember(base, JSON.stringify(payloadField), String(other))],
    [`${keyField} twice`, withMember(base, JSON.stringify(keyField), JSON.stringify("another"))],
    [`${keyField} twice, once through a \\u escape`, withMember(base, escapedFirst(keyField), JSON.stringify("another"))],
    ["a nested name twice", withMember(base, '"meta"', '{"items":[{"n":1,"n":2}]}')],
    ["one name in two sibling objects", withMember(base, '"meta"', '{"a":{"n":1},"b":[{"n":1},{"n":2}]}')],
    ["colons, quotes and backslashes in strings", withMember(base, '"no\\"te:"', '"a:\\"b\\\\\\":{\\"c\\":1}"')],
  ];
}

/** A Pass state that evaluates `expression` on the body it is given. */
const passState = (expression: string) => JSON.stringify({ Type: "Pass", QueryLanguage: "JSONata", Output: `{% ${expression} %}`, End: true });

export const duplicateMembersProbe: Probe = {
  id: "duplicate-members",
  title: "A member name twice in one body: the Decode step, $parse and $string (TestState)",
  protects: "one key per identity: a body with a member name twice is invalid-message, whichever member $parse keeps",
  needsStack: false,
  calls: (stack) => [
    { service: "Step Functions", action: "TestState", count: 6, resource: `${stack.names.stateMachine} (definition sent inline; nothing deployed)`, why: "Decode on each vector" },
    { service: "Step Functions", action: "TestState", count: 3, resource: "a Pass state sent inline", why: "what $parse keeps of a name written twice, and what $string writes" },
  ],
  async run(context) {
    const keyField = firstOf(context, OutputName.BusinessKeyFields, "id");
    const payloadField = firstOf(context, OutputName.PayloadFields, "amount");
    const base = context.stack.profile.unique(0, "verify-duplicates", () => 0.5);
    const vectors = duplicateVectors(base, keyField, payloadField);
    const facts: Fact[] = [];
    for (const [name, body] of vectors) {
      const answer = await testState(context, { definition: context.stack.definition, stateName: "Decode", input: JSON.stringify({ body }) });
      const out = answer.output as { key?: string | null; problem?: string | null } | undefined;
      facts.push([name, !out ? answer.text : out.problem ? `refused: ${out.problem}` : `key ${String(out.key)}`]);
    }
    const twice = { body: vectors[0][1] };
    const ask = async (expression: string) => (await testState(context, { definition: passState(expression), input: JSON.stringify(twice) })).text;
    facts.push(
      [`$parse keeps one ${payloadField} (keys of the parsed body)`, await ask("$count($keys($parse($states.input.body)))")],
      [`$parse keeps the value of`, await ask(`$lookup($parse($states.input.body), '${payloadField.replace(/'/g, "\\'")}') = ${JSON.stringify(base[payloadField] ?? null)} ? 'the first' : 'the last'`)],
      ["$string writes one ':' per kept member", await ask("$count($split($string($parse($states.input.body)), ':')) - 1 = $count($keys($parse($states.input.body)))")],
    );
    return { facts };
  },
};
