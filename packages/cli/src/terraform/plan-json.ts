/**
 * The parts of `terraform show -json <planfile>` (format 1.x) that the review reads. Only what is used is typed;
 * everything else passes through untouched.
 */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** `true` where a value is unknown until apply; objects and arrays mirror the shape of `after`. */
export type UnknownMarks = boolean | UnknownMarks[] | { [key: string]: UnknownMarks };

export interface PlanChange {
  readonly actions: readonly string[];
  readonly before: JsonObject | null;
  readonly after: JsonObject | null;
  readonly after_unknown?: UnknownMarks;
  readonly replace_paths?: readonly (readonly (string | number)[])[];
}

export interface PlanResourceChange {
  readonly address: string;
  readonly mode: "managed" | "data";
  readonly type: string;
  readonly name: string;
  readonly change: PlanChange;
  readonly action_reason?: string;
}

/** One configuration expression: a literal (`constant_value`, which for JSON syntax keeps `${...}` templates) and what it references. */
export interface ConfigExpression {
  readonly constant_value?: JsonValue;
  readonly references?: readonly string[];
}
/** Expressions of a resource; nested blocks are arrays of expression maps. */
export type ConfigExpressions = { [attribute: string]: ConfigExpression | ConfigExpressions[] };

export interface ConfigResource {
  readonly address: string;
  readonly mode: "managed" | "data";
  readonly type: string;
  readonly name: string;
  readonly expressions?: ConfigExpressions;
  readonly schema_version?: number;
}

export interface PlanJson {
  readonly format_version: string;
  readonly terraform_version?: string;
  readonly resource_changes?: readonly PlanResourceChange[];
  readonly configuration?: {
    readonly provider_config?: Record<string, { readonly expressions?: ConfigExpressions }>;
    readonly root_module?: { readonly resources?: readonly ConfigResource[] };
  };
  readonly planned_values?: JsonValue;
  readonly prior_state?: JsonValue;
}

/** Is this object the output of `terraform show -json` for a plan file? */
export function isPlanJson(value: unknown): value is PlanJson {
  return typeof value === "object" && value !== null && typeof (value as PlanJson).format_version === "string" && "resource_changes" in value;
}

/** The configuration of each root-module resource, by address. */
export function configByAddress(plan: PlanJson): Map<string, ConfigResource> {
  return new Map((plan.configuration?.root_module?.resources ?? []).map((r) => [r.address, r]));
}

/** The expression at `path` (attribute names and block indexes) in a resource's configuration, if any. */
export function expressionAt(expressions: ConfigExpressions | undefined, path: readonly (string | number)[]): ConfigExpression | undefined {
  let node: unknown = expressions;
  for (const step of path) {
    if (node === undefined || node === null || typeof node !== "object") return undefined;
    node = (node as Record<string | number, unknown>)[step];
  }
  if (node && typeof node === "object" && !Array.isArray(node) && ("constant_value" in node || "references" in node)) return node as ConfigExpression;
  return undefined;
}

export const PlanAction = {
  Create: "create",
  Update: "update",
  Replace: "replace",
  Destroy: "destroy",
  Noop: "no-op",
  Read: "read",
} as const;
export type PlanAction = (typeof PlanAction)[keyof typeof PlanAction];

/** Terraform's action list as one word: `["delete","create"]` and `["create","delete"]` are both a replacement. */
export function classifyActions(actions: readonly string[]): PlanAction {
  if (actions.includes("delete") && actions.includes("create")) return PlanAction.Replace;
  if (actions.includes("delete")) return PlanAction.Destroy;
  if (actions.includes("create")) return PlanAction.Create;
  if (actions.includes("update")) return PlanAction.Update;
  if (actions.includes("read")) return PlanAction.Read;
  return PlanAction.Noop;
}

/** Managed resources only: data sources are reads, not changes to review. */
export function managedChanges(plan: PlanJson): PlanResourceChange[] {
  return (plan.resource_changes ?? []).filter((rc) => rc.mode === "managed");
}

/** Reads a value at a path of plain keys and indexes; undefined when any step is missing. */
export function valueAt(value: JsonValue | undefined, path: readonly (string | number)[]): JsonValue | undefined {
  let node: JsonValue | undefined = value;
  for (const step of path) {
    if (node === null || node === undefined || typeof node !== "object") return undefined;
    node = (node as Record<string | number, JsonValue>)[step];
  }
  return node;
}

/** Is the value at `path` marked unknown (itself or an enclosing block)? */
export function isUnknownAt(marks: UnknownMarks | undefined, path: readonly (string | number)[]): boolean {
  let node: UnknownMarks | undefined = marks;
  for (const step of path) {
    if (node === true) return true;
    if (node === undefined || node === false || typeof node !== "object") return false;
    node = (node as Record<string | number, UnknownMarks>)[step];
  }
  return node === true;
}
