/**
 * Semantic mutants of the rendered state machine: each one a single plausible mistake in the protocol. Drop one
 * clause of a DynamoDB condition (at any depth), drop one conjunct of a JSONata Choice condition (the claim id and
 * expiry checks), negate or remove a Choice rule, remove a Catch, remove a Retry or one of its error names, skip a
 * Task state (e.g. Release). A proof worth the name kills every one that changes behaviour.
 */
import { misclassificationMutants } from "./misclassification";
import type { Mutant } from "./mutant";

type Json = Record<string, unknown>;

export type { Mutant };

/** Every state of the definition, at any depth (Map item processors, Parallel branches), with its path. */
function states(definition: Json, prefix = ""): [string, Json][] {
  const out: [string, Json][] = [];
  for (const [name, state] of Object.entries((definition.States ?? {}) as Record<string, Json>)) {
    const path = prefix ? `${prefix}/${name}` : name;
    out.push([path, state]);
    if (state.ItemProcessor) out.push(...states(state.ItemProcessor as Json, path));
    for (const [i, branch] of ((state.Branches ?? []) as Json[]).entries()) out.push(...states(branch, `${path}#${i}`));
  }
  return out;
}

/** Applies `change` to the state at `path` of a deep copy of the definition. */
function at(path: string, change: (state: Json, parent: Record<string, Json>) => void): (d: Json) => Json {
  return (definition) => {
    const copy = JSON.parse(JSON.stringify(definition)) as Json; // no shared sub-objects: the renderer reuses one Retry array
    const found = states(copy).find(([p]) => p === path);
    if (!found) throw new Error(`mutant: no state ${path}`);
    const parentPath = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "";
    const parentStates = parentPath ? ((states(copy).find(([p]) => p === parentPath)?.[1].ItemProcessor as Json).States as Record<string, Json>) : (copy.States as Record<string, Json>);
    change(found[1], parentStates);
    return copy;
  };
}

/** Splits at a top-level separator (outside parentheses, brackets and quotes). */
function splitTop(text: string, separator: RegExp): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote = "";
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote && text[i - 1] !== "\\") quote = "";
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    else if (c === "(" || c === "[" || c === "{") depth++;
    else if (c === ")" || c === "]" || c === "}") depth--;
    else if (depth === 0) {
      const m = separator.exec(text.slice(i));
      if (m && m.index === 0) {
        parts.push(text.slice(start, i).trim());
        i += m[0].length - 1;
        start = i + 1;
      }
    }
  }
  parts.push(text.slice(start).trim());
  return parts;
}

const unwrap = (t: string): string | undefined => (t.startsWith("(") && t.endsWith(")") && splitTop(t.slice(1, -1), /^$/).length >= 1 && balanced(t.slice(1, -1)) ? t.slice(1, -1) : undefined);
function balanced(t: string): boolean {
  let depth = 0;
  for (const c of t) {
    depth += c === "(" ? 1 : c === ")" ? -1 : 0;
    if (depth < 0) return false;
  }
  return depth === 0;
}

/** Every expression obtained by dropping one OR-term or AND-factor, at any depth. */
export function dropOneClause(expr: string, or: RegExp, and: RegExp): { text: string; dropped: string }[] {
  const out: { text: string; dropped: string }[] = [];
  const terms = splitTop(expr, or);
  const joinOr = (xs: string[]) => xs.join(or === OR_DDB ? " OR " : " or ");
  const joinAnd = (xs: string[]) => xs.join(and === AND_DDB ? " AND " : " and ");
  terms.forEach((term, i) => {
    if (terms.length > 1) out.push({ text: joinOr(terms.filter((_, j) => j !== i)), dropped: term });
    const inner = unwrap(term);
    const factors = splitTop(inner ?? term, and);
    factors.forEach((factor, k) => {
      if (factors.length > 1) {
        const rest = joinAnd(factors.filter((_, j) => j !== k));
        out.push({ text: joinOr(terms.map((t, j) => (j === i ? (inner !== undefined ? `(${rest})` : rest) : t))), dropped: factor });
      }
      const deeper = unwrap(factor);
      if (deeper !== undefined && factors.length > 0) {
        for (const sub of dropOneClause(deeper, or, and)) {
          const f2 = factors.map((f, j) => (j === k ? `(${sub.text})` : f));
          const t2 = inner !== undefined ? `(${joinAnd(f2)})` : joinAnd(f2);
          out.push({ text: joinOr(terms.map((t, j) => (j === i ? t2 : t))), dropped: sub.dropped });
        }
      }
    });
  });
  return out;
}
const OR_DDB = /^ OR /;
const AND_DDB = /^ AND /;
/** The separators of DynamoDB condition expressions. */
export const DDB_SEPARATORS = { or: OR_DDB, and: AND_DDB } as const;
const OR_JSONATA = /^ or /;
const AND_JSONATA = /^ and /;

/** Removes expression attribute names and values the condition and update expressions no longer use. */
function pruneUnused(args: Json): void {
  const text = `${args.ConditionExpression ?? ""} ${args.UpdateExpression ?? ""} ${args.KeyConditionExpression ?? ""}`;
  for (const field of ["ExpressionAttributeNames", "ExpressionAttributeValues"]) {
    const map = args[field] as Record<string, unknown> | undefined;
    if (!map) continue;
    for (const k of Object.keys(map)) if (!new RegExp(`${k}(?![A-Za-z0-9_])`).test(text)) delete map[k];
    if (Object.keys(map).length === 0) delete args[field];
  }
}

function jsonataBody(value: unknown): string | undefined {
  return typeof value === "string" && value.startsWith("{%") && value.endsWith("%}") ? value.slice(2, -2).trim() : undefined;
}

export function mutantsOf(definition: Json): Mutant[] {
  const out: Mutant[] = [...misclassificationMutants()];
  const all = states(definition);
  for (const [path, state] of all) {
    const args = state.Arguments as Json | undefined;
    const condition = typeof args?.ConditionExpression === "string" ? args.ConditionExpression : undefined;
    if (condition) {
      for (const m of dropOneClause(condition, OR_DDB, AND_DDB)) {
        out.push({ id: `${path}:condition-drop:${m.dropped}`, description: `${path}: ConditionExpression without \`${m.dropped}\``, apply: at(path, (s) => {
          const a = s.Arguments as Json;
          a.ConditionExpression = m.text;
          pruneUnused(a);
        }) });
      }
      out.push({ id: `${path}:condition-none`, description: `${path}: no ConditionExpression at all`, apply: at(path, (s) => {
        const a = s.Arguments as Json;
        delete a.ConditionExpression;
        pruneUnused(a);
      }) });
    }
    for (const [i, rule] of ((state.Choices ?? []) as Json[]).entries()) {
      const expr = jsonataBody(rule.Condition);
      if (expr === undefined) continue;
      out.push({ id: `${path}:choice-${i}:negate`, description: `${path}: rule ${i} negated (${expr.slice(0, 60)})`, apply: at(path, (s) => {
        ((s.Choices as Json[])[i] as Json).Condition = `{% $not(${expr}) %}`;
      }) });
      out.push({ id: `${path}:choice-${i}:remove`, description: `${path}: rule ${i} removed`, apply: at(path, (s) => {
        (s.Choices as Json[]).splice(i, 1);
        if ((s.Choices as Json[]).length === 0) s.Choices = [{ Condition: "{% false %}", Next: s.Default ?? (rule.Next as string) }];
      }) });
      for (const m of dropOneClause(expr, OR_JSONATA, AND_JSONATA)) {
        out.push({ id: `${path}:choice-${i}:drop:${m.dropped}`, description: `${path}: rule ${i} without \`${m.dropped.slice(0, 70)}\``, apply: at(path, (s) => {
          ((s.Choices as Json[])[i] as Json).Condition = `{% ${m.text} %}`;
        }) });
      }
    }
    for (const [i, c] of ((state.Catch ?? []) as Json[]).entries()) {
      out.push({ id: `${path}:catch-${i}:remove`, description: `${path}: Catch ${JSON.stringify(c.ErrorEquals)} removed`, apply: at(path, (s) => {
        (s.Catch as Json[]).splice(i, 1);
      }) });
    }
    for (const [i, r] of ((Array.isArray(state.Retry) ? state.Retry : []) as Json[]).entries()) {
      out.push({ id: `${path}:retry-${i}:remove`, description: `${path}: Retry ${i} removed`, apply: at(path, (s) => {
        (s.Retry as Json[]).splice(i, 1);
      }) });
      const errors = (Array.isArray(r.ErrorEquals) ? r.ErrorEquals : []) as string[];
      if (errors.length > 1) {
        for (const e of errors) {
          out.push({ id: `${path}:retry-${i}:without:${e}`, description: `${path}: Retry without ${e}`, apply: at(path, (s) => {
            const rr = (s.Retry as Json[])[i] as Json;
            rr.ErrorEquals = (rr.ErrorEquals as string[]).filter((x) => x !== e);
          }) });
        }
      }
    }
    if (state.Type === "Task" && typeof state.Next === "string") {
      const name = path.slice(path.lastIndexOf("/") + 1);
      const next = state.Next;
      out.push({ id: `${path}:skip`, description: `${path}: skipped (every transition into it goes to ${next})`, apply: (d) => {
        const copy = JSON.parse(JSON.stringify(d)) as Json;
        for (const [, s] of states(copy)) {
          if (s.Next === name) s.Next = next;
          for (const c of (s.Catch ?? []) as Json[]) if (c.Next === name) c.Next = next;
          for (const c of (s.Choices ?? []) as Json[]) if (c.Next === name) c.Next = next;
          if (s.Default === name) s.Default = next;
        }
        return copy;
      } });
    }
  }
  return out;
}
