/** The rules the reference model judges a body by (oracle/model.ts), written from the intended semantics, not the pipeline's code. */
import type { MessageAttribute } from "../scenario/shape";
import type { OracleKeyTerm } from "./key";

/** A declared field rule, as the model reads it (its own evaluator, not the pipeline's). */
export type OracleFieldRule =
  | { readonly type: "string"; readonly minLength?: number; readonly maxLength?: number; readonly pattern?: string }
  | { readonly type: "integer"; readonly minimum?: number; readonly maximum?: number }
  | { readonly type: "string-or-integer" };


/** The identity and rules of a pipeline, as the model reads them. */
export interface OracleRules {
  readonly keyParts: readonly string[];
  /**
   * The key's parts in order (a drawn domain's, domain/key-terms.ts); default: `keyParts`. Required fields the terms do not
   * read are appended: an identity is every declared key field, whatever the expression reads.
   */
  readonly keyTerms?: readonly OracleKeyTerm[];
  readonly payloadFields: readonly string[];
  readonly fields: Readonly<Record<string, OracleFieldRule>>;
  readonly maxKeyBytes: number;
  /** Nesting beyond this is "deep": invalid-message on first delivery. Generated bodies are either ≤ 10 or 20,000 deep. */
  readonly maxDepth: number;
  /** What the source queue accepts (body + attributes), from the deployed setting. */
  readonly maxMessageBytes: number;
  /** A payload field value the downstream refuses for good (the example's currency XXX): quarantined as rejected. */
  readonly downstreamRefuses?: { readonly field: string; readonly value: unknown };
  /** The pipe's filter, as the model reads it: a send it drops is `filtered` (a drawn domain's, domain/space.ts). */
  readonly passes?: (body: string, attributes?: readonly MessageAttribute[]) => boolean;
  /** What a charge of this valid body records (default its amount and currency; a drawn domain's generic effect). */
  readonly chargeOf?: (body: Readonly<Record<string, unknown>>) => { readonly amount: unknown; readonly currency: unknown };
}

/** The payments pipeline's identity and rules (issue 11's decisions). */
export const PAYMENTS_RULES: OracleRules = {
  keyParts: ["tenantId", "orderId"],
  payloadFields: ["amount", "currency"],
  fields: {
    tenantId: { type: "string" },
    orderId: { type: "string" },
    amount: { type: "integer", minimum: 1 },
    currency: { type: "string", pattern: "^[A-Z]{3}$" },
  },
  maxKeyBytes: 1024,
  maxDepth: 64,
  maxMessageBytes: 262_144,
  downstreamRefuses: { field: "currency", value: "XXX" },
};

/** What is wrong with a field's value under its declared rule; undefined when nothing is. */
export function ruleProblem(value: unknown, rule: OracleFieldRule): string | undefined {
  if (rule.type === "string-or-integer") {
    return (typeof value === "string" && value !== "") || (typeof value === "number" && Number.isSafeInteger(value)) ? undefined : "must be a non-empty string or an integer";
  }
  if (rule.type === "integer") {
    if (typeof value !== "number" || !Number.isSafeInteger(value)) return "must be an integer JSON carries exactly";
    if (rule.minimum !== undefined && value < rule.minimum) return `must be >= ${rule.minimum}`;
    if (rule.maximum !== undefined && value > rule.maximum) return `must be <= ${rule.maximum}`;
    return undefined;
  }
  if (typeof value !== "string") return "must be a string";
  const length = [...value].length;
  if (length < (rule.minLength ?? 1)) return "must not be empty";
  if (rule.maxLength !== undefined && length > rule.maxLength) return `must be at most ${rule.maxLength} characters`;
  if (rule.pattern !== undefined && !new RegExp(rule.pattern).test(value)) return `must match ${rule.pattern}`;
  return undefined;
}
