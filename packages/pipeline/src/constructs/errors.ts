/** One thing wrong with the props: the prop, the value given, why it is unsafe or refused, and the fix. */
export interface PropProblem {
  /** The prop at fault, as a path (e.g. `function.timeoutSeconds`). */
  readonly prop: string;
  /** The value given. */
  readonly value: unknown;
  readonly reason: string;
  readonly fix: string;
}

/** A rule not run because a rule it depends on failed or was skipped itself. */
export interface SkippedRule {
  readonly name: string;
  readonly because: string;
}

/** Root of every configuration error the pipeline construct raises at synth time. */
export class PipelineConfigError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "PipelineConfigError";
  }
}

/** The longest value a message shows whole; a longer one (a 5 KB environment) is cut, with its length. */
const SHOWN_VALUE_CHARS = 200;

/** A value as the message shows it: its JSON, cut after {@link SHOWN_VALUE_CHARS} characters (whole code points). */
function shownValue(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  const chars = [...text];
  if (chars.length <= SHOWN_VALUE_CHARS) return text;
  return `${chars.slice(0, SHOWN_VALUE_CHARS - 40).join("")}… (${chars.length} characters in all)`;
}

function line(p: PropProblem): string {
  return `${p.prop} = ${shownValue(p.value)} ${p.reason}. Fix: ${p.fix}`;
}

/**
 * Prop values AWS would reject or that break a guarantee. The message names every prop at fault, its value and
 * the fix, because it is read by someone running `cdktf synth`, not by code; `prop` and `value` are the first
 * problem's, `problems` holds them all and `skipped` the rules that could not run because of them.
 */
export class InvalidPropError extends PipelineConfigError {
  /** Every problem found, the first one first. */
  readonly problems: readonly PropProblem[];
  /** Rules not checked because a rule they depend on failed (fix the problems above, then synth again). */
  readonly skipped: readonly SkippedRule[];

  constructor(
    /** The prop at fault, as a path (e.g. `function.timeoutSeconds`); the first one when there are several. */
    readonly prop: string,
    /** The value given. */
    readonly value: unknown,
    reason: string,
    fix: string,
    more: { readonly problems?: readonly PropProblem[]; readonly skipped?: readonly SkippedRule[] } = {},
  ) {
    const first: PropProblem = { prop, value, reason, fix };
    const problems = [first, ...(more.problems ?? [])];
    const skipped = more.skipped ?? [];
    const message =
      problems.length === 1 && skipped.length === 0
        ? `IdempotentPipeline: ${line(first)}`
        : [
            `IdempotentPipeline: ${problems.length} prop problem${problems.length === 1 ? "" : "s"}:`,
            ...problems.map((p, i) => `  ${i + 1}. ${line(p)}`),
            ...(skipped.length > 0 ? [`  Not checked until those are fixed: ${skipped.map((s) => `${s.name} (needs ${s.because})`).join("; ")}.`] : []),
          ].join("\n");
    super(message);
    this.name = "InvalidPropError";
    this.problems = problems;
    this.skipped = skipped;
  }

  /** One error for every problem of a rule run (the first problem gives `prop` and `value`). */
  static of(problems: readonly PropProblem[], skipped: readonly SkippedRule[] = []): InvalidPropError {
    const [first, ...rest] = problems;
    if (!first) throw new Error("InvalidPropError.of needs at least one problem");
    return new InvalidPropError(first.prop, first.value, first.reason, first.fix, { problems: rest, skipped });
  }
}
