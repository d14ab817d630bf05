import type { PropProblem, SkippedRule } from "./errors";
import type { ResolvedPipelineProps } from "./props";

export type { PropProblem, SkippedRule };

/**
 * One synth-time rule, as data (aws-cdk's prop validation): every rule runs, so one error reports every problem.
 * A rule that reads props another rule checks names it in `after`, and is skipped (and said to be) while that one
 * fails: a bound computed from a value already refused would only repeat the first problem in other words.
 */
export interface PropRule {
  /** A short name, for `after` and for the skipped list. */
  readonly name: string;
  /** Rules that must hold before this one means anything. */
  readonly after?: readonly string[];
  /** The problems found (none: `undefined` or an empty list). */
  readonly check: (p: ResolvedPipelineProps) => PropProblem | readonly PropProblem[] | undefined;
}

export interface RuleReport {
  readonly problems: readonly PropProblem[];
  readonly skipped: readonly SkippedRule[];
}

/**
 * Runs every rule in order (a rule's `after` must come before it), collecting all problems; with `firstOnly`, stops at
 * the first rule that finds one (a yes/no answer for a generator that draws many props and keeps few).
 */
export function runPropRules(rules: readonly PropRule[], p: ResolvedPipelineProps, { firstOnly = false } = {}): RuleReport {
  checkTable(rules);
  const problems: PropProblem[] = [];
  const skipped: SkippedRule[] = [];
  const failed = new Set<string>();
  for (const rule of rules) {
    const blocking = failed.size === 0 || rule.after === undefined ? [] : rule.after.filter((name) => failed.has(name));
    if (blocking.length > 0) {
      failed.add(rule.name);
      skipped.push({ name: rule.name, because: blocking.join(", ") });
      continue;
    }
    const found = rule.check(p);
    const list = found === undefined ? [] : Array.isArray(found) ? (found as readonly PropProblem[]) : [found as PropProblem];
    if (list.length > 0) {
      failed.add(rule.name);
      problems.push(...list);
      if (firstOnly) break;
    }
  }
  return { problems, skipped };
}

/** The tables whose names and order were checked: a table is a constant, so once is enough (the simulation runs one per drawn props). */
const checkedTables = new WeakSet<readonly PropRule[]>();

/** Each name once, and each `after` naming an earlier rule. */
function checkTable(rules: readonly PropRule[]): void {
  if (checkedTables.has(rules)) return;
  const seen = new Set<string>();
  for (const rule of rules) {
    if (seen.has(rule.name)) throw new Error(`prop rules: two rules are named ${rule.name}`);
    seen.add(rule.name);
    const unknown = (rule.after ?? []).filter((name) => !seen.has(name));
    if (unknown.length > 0) throw new Error(`prop rules: ${rule.name} runs after ${unknown.join(", ")}, which no earlier rule is named`);
  }
  checkedTables.add(rules);
}

/** A whole-number range check, the most common rule. */
export function integerIn(prop: string, value: number, min: number, max: number, fix: string): PropProblem | undefined {
  if (Number.isInteger(value) && value >= min && value <= max) return undefined;
  return { prop, value, reason: `must be a whole number from ${min} to ${max}`, fix };
}
