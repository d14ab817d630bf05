/**
 * What a business key expression may be: a pure function of required body fields, so one message has one key on
 * every delivery and two messages differing in a required field never share one. Accepted, in JSONata:
 * - a key part: a required field by name (`orderId`, `` `order-id` ``) or `$lookup($, 'order id')`, or a string or
 *   number literal (`'v2'`, a namespace);
 * - the key: one part, or an array of parts (`[tenantId, orderId]`), reading every required field.
 * Everything else is refused with the part at fault: a clock (`$now()`, `$millis()`), `$random()`, `$uuid()` or any
 * other function, the context (`$$`, `$states`), variables and bindings, paths deeper than one field (a key field
 * holds a string or a number, so a deeper path never yields a value), filters, operators and conditions, nested
 * arrays, and a name that `businessKey.requiredFields` does not list (a producer's typo such as `order_id` would
 * otherwise collapse every order of a tenant into one key). No function is allowed beyond the `$lookup` read: each
 * would be a second evaluator to hold equal to AWS's JSONata, and a normalization (`$lowercase`) belongs in the
 * producer or in a field rule's pattern, which refuses what is not normal instead of merging it.
 */

interface AstNode {
  readonly type?: string;
  readonly value?: unknown;
  readonly [child: string]: unknown;
}

/** Why an expression is not an accepted key, with the fix; undefined when it is. */
export interface KeyGrammarProblem {
  readonly reason: string;
  readonly fix: string;
}

const FIX = "give the key as an array of required body fields, e.g. \"[tenantId, orderId]\" (string literals may name a namespace)";

/** The JSONata text of a node, for the message: its kind and value. */
function shown(node: AstNode): string {
  if (node.type === "function") {
    const procedure = node.procedure as AstNode | undefined;
    return procedure?.type === "variable" ? `$${String(procedure.value)}()` : "a function call";
  }
  if (node.type === "variable") return node.value === "" ? "$" : `$${String(node.value)}`;
  if (node.type === "path") return "a path";
  return `${node.type ?? "an expression"}${typeof node.value === "string" && node.value !== "" ? ` ${node.value}` : ""}`;
}

/** Keys an AST node may carry besides type and value without changing what it reads (position is the source offset). */
const PLAIN = new Set(["type", "value", "position"]);
const plain = (node: AstNode, more: readonly string[] = []): boolean => Object.keys(node).every((k) => PLAIN.has(k) || more.includes(k));

/** The required field a part reads, or the problem. */
function partProblem(node: AstNode, required: ReadonlySet<string>, read: Set<string>): KeyGrammarProblem | undefined {
  const field = (name: string): KeyGrammarProblem | undefined => {
    if (!required.has(name)) {
      return {
        reason: `reads the field ${JSON.stringify(name)}, which businessKey.requiredFields (${[...required].map((f) => JSON.stringify(f)).join(", ")}) does not list; a message without it would still get a key, so a typo collapses many messages into one`,
        fix: `list ${JSON.stringify(name)} in businessKey.requiredFields, or correct the name`,
      };
    }
    read.add(name);
    return undefined;
  };
  if ((node.type === "string" || node.type === "number") && plain(node)) return undefined;
  if (node.type === "path" && plain(node, ["steps"])) {
    const steps = node.steps as AstNode[];
    if (steps.length === 1 && steps[0].type === "name" && plain(steps[0]) && typeof steps[0].value === "string") return field(steps[0].value);
    if (steps.length > 1 && steps[0].type === "name") {
      return { reason: "reads a path deeper than one field; a key field holds a string or a number, so the path never yields a value", fix: FIX };
    }
    const at = steps.find((s) => s.type !== "name") ?? steps[0];
    return { reason: `reads ${shown(at)}, which is not a body field (the context, a variable or a filter): the key must be a pure function of required body fields`, fix: FIX };
  }
  if (node.type === "function" && plain(node, ["arguments", "procedure", "name"])) {
    const procedure = node.procedure as AstNode;
    const args = node.arguments as AstNode[];
    if (procedure.type === "variable" && procedure.value === "lookup" && args.length === 2 && args[0].type === "variable" && args[0].value === "" && args[1].type === "string" && typeof args[1].value === "string") {
      return field(args[1].value);
    }
    const clock = ["now", "millis", "random", "uuid"].includes(String(procedure.value));
    return {
      reason: `calls ${shown(node)}${clock ? ", which gives another value on every delivery, so a redelivery would be a new key" : ""}; only $lookup($, 'field') is accepted: the key must be a pure function of required body fields`,
      fix: FIX,
    };
  }
  if (node.type === "unary" && node.value === "[") return { reason: "nests an array inside the key; every key part must be a string or a number", fix: FIX };
  return { reason: `uses ${shown(node)}, which is not a body field or a literal: the key must be a pure function of required body fields`, fix: FIX };
}

/** Checks a parsed key expression against the grammar above. */
export function keyGrammarProblem(ast: unknown, requiredFields: readonly string[]): KeyGrammarProblem | undefined {
  const node = ast as AstNode;
  const parts = node.type === "unary" && node.value === "[" && plain(node, ["expressions"]) ? (node.expressions as AstNode[]) : [node];
  if (parts.length === 0) return { reason: "is an empty array: every message would have no key", fix: FIX };
  const required = new Set(requiredFields);
  const read = new Set<string>();
  for (const part of parts) {
    const problem = partProblem(part, required, read);
    if (problem) return problem;
  }
  const unread = requiredFields.filter((f) => !read.has(f));
  if (unread.length > 0) {
    return {
      reason: `never reads ${unread.map((f) => JSON.stringify(f)).join(", ")}, which businessKey.requiredFields lists: two messages that differ only there would share one key`,
      fix: `add ${unread.join(", ")} to the key's parts, or remove ${unread.length > 1 ? "them" : "it"} from businessKey.requiredFields (a fieldRules entry still checks a field)`,
    };
  }
  return undefined;
}
