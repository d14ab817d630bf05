/**
 * The business key: the canonical JSON text of the key parts (`["t1","o-42"]`). Parts are never concatenated,
 * because a separator inside a part makes two tuples one key (`a#b` + `c` and `a` + `b#c`).
 */
import jsonata from "jsonata";
import { businessKeyText } from "./canonical";
import { ContractConfigError } from "./errors";
import { keyGrammarProblem } from "./key-expression-grammar";

interface AstNode {
  readonly type?: string;
  readonly value?: unknown;
  readonly procedure?: AstNode;
  readonly [child: string]: unknown;
}

/** The concatenations that reintroduce separator ambiguity, found in the expression's syntax tree. */
function concatenations(node: unknown, found: string[] = []): string[] {
  if (Array.isArray(node)) {
    for (const child of node) concatenations(child, found);
    return found;
  }
  if (node === null || typeof node !== "object") return found;
  const n = node as AstNode;
  if (n.type === "binary" && n.value === "&") found.push("the & operator");
  if (n.type === "function" && n.procedure?.type === "variable" && (n.procedure.value === "join" || n.procedure.value === "string")) {
    found.push(`$${String(n.procedure.value)}()`);
  }
  for (const [name, child] of Object.entries(n)) if (name !== "position") concatenations(child, found);
  return found;
}

/** Parsed key expressions (or their parse errors), by text: validating props parses the same few keys thousands of times. */
const parsed = new Map<string, unknown>();
const PARSED_LIMIT = 256;

/** The expression's syntax tree (read, never changed, by the checks below), or the parse error. */
function parsedKeyExpression(expression: string): unknown {
  if (parsed.has(expression)) return parsed.get(expression);
  let ast: unknown;
  try {
    ast = jsonata(expression).ast();
  } catch (error) {
    ast = error instanceof Error ? error : new Error(String(error));
  }
  if (parsed.size >= PARSED_LIMIT) parsed.delete(parsed.keys().next().value as string);
  parsed.set(expression, ast);
  return ast;
}

/**
 * Refuses a key expression that does not compile, that joins parts into one string, or that is not a pure function
 * of the required body fields (key-expression-grammar.ts). The fix is the parts as an array, e.g.
 * `[tenantId, orderId]`: the state machine writes them as canonical JSON, which no value can forge.
 */
export function assertKeyExpression(expression: string, requiredFields: readonly string[], prop = "businessKey.expression"): void {
  const ast = parsedKeyExpression(expression);
  if (ast instanceof Error) {
    throw new ContractConfigError(prop, expression, `is not a JSONata expression (${ast.message})`, "give the key parts as a JSONata array, e.g. \"[tenantId, orderId]\"", { cause: ast });
  }
  const joined = [...new Set(concatenations(ast))];
  if (joined.length > 0) {
    throw new ContractConfigError(
      prop,
      expression,
      `turns the key parts into one string with ${joined.join(" and ")}, so a separator (or a rounded number) inside a value would make two different keys one (a#b + c and a + b#c)`,
      "give the parts as an array, e.g. \"[tenantId, orderId]\": the ledger key is their canonical JSON, which no value can forge",
    );
  }
  const problem = keyGrammarProblem(ast, requiredFields);
  if (problem) throw new ContractConfigError(prop, expression, problem.reason, problem.fix);
}

/** A key given by an operator: canonical JSON text as the DLQ listing shows it, or its parts (`--part a --part b`). */
export function businessKeyFromOperator(input: { readonly key?: string; readonly parts?: readonly string[] }): string {
  if (input.parts && input.parts.length > 0) return businessKeyText(input.parts);
  const key = input.key ?? "";
  let parsed: unknown;
  try {
    parsed = JSON.parse(key);
  } catch {
    // Not canonical text: a one-part key typed as its plain value.
    return businessKeyText([key]);
  }
  return Array.isArray(parsed) ? businessKeyText(parsed) : businessKeyText([key]);
}
