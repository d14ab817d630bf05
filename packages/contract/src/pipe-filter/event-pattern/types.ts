/** Compiled form of an EventBridge event pattern (see `compile.ts`). */

/** A leaf value of a flattened event: what a matcher is tested against. */
export type LeafValue = string | number | boolean | null;

/** One numeric bound, e.g. `">=", 5`. */
export interface NumericBound {
  readonly value: number;
  readonly inclusive: boolean;
}

/** One entry of a field's matcher array, compiled. `operator` names it for support checks (e.g. `anything-but/prefix`). */
export type Matcher =
  | { readonly operator: "equals"; readonly value: LeafValue }
  | { readonly operator: "prefix" | "suffix"; readonly value: string; readonly ignoreCase: boolean }
  | { readonly operator: "equals-ignore-case"; readonly value: string }
  | { readonly operator: "wildcard"; readonly regex: RegExp }
  | { readonly operator: "numeric"; readonly equals?: number; readonly lower?: NumericBound; readonly upper?: NumericBound }
  | { readonly operator: "exists"; readonly value: boolean }
  | { readonly operator: "cidr"; readonly network: bigint; readonly mask: bigint; readonly version: 4 | 6 }
  | { readonly operator: "anything-but"; readonly values: readonly (string | number)[] }
  | { readonly operator: "anything-but/prefix" | "anything-but/suffix"; readonly values: readonly string[] }
  | { readonly operator: "anything-but/equals-ignore-case"; readonly values: readonly string[] }
  | { readonly operator: "anything-but/wildcard"; readonly regexes: readonly RegExp[] };

/** The operator names a pattern can use (the `operator` of {@link Matcher}, plus `$or`). */
export type PatternOperator = Matcher["operator"] | "$or";

/** One field of the pattern: the dotted path of the leaf and the matchers, any of which may match. */
export interface FieldRule {
  readonly path: string;
  readonly matchers: readonly Matcher[];
}

/** A pattern level: every field must match, and in every `$or` group at least one alternative must match. */
export interface PatternNode {
  readonly fields: readonly FieldRule[];
  readonly orGroups: readonly (readonly PatternNode[])[];
}

/** A validated, compiled pattern. */
export interface CompiledPattern {
  readonly root: PatternNode;
  /** Every operator the pattern uses (so a caller can refuse the ones its service does not support). */
  readonly operators: ReadonlySet<PatternOperator>;
  /** Every top-level field name the pattern refers to (inside `$or` too). */
  readonly topLevelFields: ReadonlySet<string>;
}
