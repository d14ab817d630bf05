import {
  classifyActions,
  configByAddress,
  expressionAt,
  isUnknownAt,
  managedChanges,
  valueAt,
  type ConfigExpressions,
  type JsonObject,
  type JsonValue,
  type PlanAction,
  type PlanJson,
  type UnknownMarks,
} from "../plan-json";
import { describeTemplate, type ResourceReference } from "@effectively-once/local-cloud/terraform-json";
import type { Shown } from "./types";

/** Shown for a value AWS assigns at apply when the configuration does not say where it comes from. */
export const KNOWN_AFTER_APPLY = "(known after apply)";

/** One managed resource of a plan, with what the review needs to read its values. */
export interface PlannedResource {
  readonly address: string;
  readonly type: string;
  readonly action: PlanAction;
  readonly before: JsonObject | null;
  readonly after: JsonObject | null;
  readonly afterUnknown: UnknownMarks | undefined;
  readonly expressions: ConfigExpressions | undefined;
  readonly replacePaths: readonly string[];
}

const SERVICES: readonly [prefix: string, service: string][] = [
  ["aws_cloudwatch_log_", "CloudWatch Logs"],
  ["aws_cloudwatch_event_", "EventBridge"],
  ["aws_cloudwatch_", "CloudWatch"],
  ["aws_sqs_", "SQS"],
  ["aws_dynamodb_", "DynamoDB"],
  ["aws_iam_", "IAM"],
  ["aws_lambda_", "Lambda"],
  ["aws_sfn_", "Step Functions"],
  ["aws_pipes_", "EventBridge Pipes"],
  ["aws_scheduler_", "EventBridge Scheduler"],
  ["aws_sns_", "SNS"],
  ["aws_kms_", "KMS"],
  ["aws_s3_", "S3"],
];

/** The AWS service a resource type belongs to, for grouping. */
export function serviceOf(type: string): string {
  const known = SERVICES.find(([prefix]) => type.startsWith(prefix));
  if (known) return known[1];
  const [provider, service] = type.split("_");
  return service ? `${service.toUpperCase()}${provider === "aws" ? "" : ` (${provider})`}` : type;
}

const NAME_KEYS = ["name", "function_name", "alarm_name", "dashboard_name", "role_name"] as const;

/** The resource's AWS name, when the plan knows it. */
export function displayName(values: JsonObject | null): string | null {
  if (!values) return null;
  for (const key of NAME_KEYS) if (typeof values[key] === "string") return values[key] as string;
  return null;
}

export function plannedResources(plan: PlanJson): PlannedResource[] {
  const config = configByAddress(plan);
  return managedChanges(plan).map((rc) => ({
    address: rc.address,
    type: rc.type,
    action: classifyActions(rc.change.actions),
    before: rc.change.before,
    after: rc.change.after,
    afterUnknown: rc.change.after_unknown,
    // count/for_each instances share one configuration block.
    expressions: config.get(rc.address.replace(/\[[^\]]*\]$/, ""))?.expressions,
    replacePaths: (rc.change.replace_paths ?? []).map((p) => p.join(".")),
  }));
}

/** Labels references as `type.name.attribute (aws-name)` so reviewers see what an unknown ARN will point at. */
export function referenceLabeler(resources: readonly PlannedResource[]): (ref: ResourceReference) => string {
  const names = new Map(resources.map((r) => [r.address, displayName(r.after) ?? displayName(r.before)]));
  return (ref) => {
    const name = names.get(ref.address);
    // A reference to a name that is already known is that name, exactly.
    if (name && (ref.attribute === "name" || ref.attribute === "function_name")) return name;
    return `${ref.address}.${ref.attribute}${name ? ` (${name})` : ""}`;
  };
}

/**
 * Reads one side of a resource. For the planned side, a value unknown until apply is shown as the reference the
 * configuration builds it from, or {@link KNOWN_AFTER_APPLY} when there is none.
 */
export interface ValueReader {
  /** A primitive for display; null when absent. */
  shown(path: readonly (string | number)[]): Shown;
  /** The known raw value, or undefined when absent or unknown. */
  raw(path: readonly (string | number)[]): JsonValue | undefined;
  /** The configuration's template (JSON syntax keeps `${...}`) when the value is built from references or unknown. */
  template(path: readonly (string | number)[]): string | undefined;
}

function readerFor(values: JsonObject, side: { unknown?: UnknownMarks; expressions?: ConfigExpressions; label?: (ref: ResourceReference) => string } = {}): ValueReader {
  // The configuration's reference is shown even when the value is known: it names the resource, where a seeded or
  // placeholder ARN would only look real.
  const template = (path: readonly (string | number)[]) => {
    const expression = expressionAt(side.expressions, path);
    const constant = expression?.constant_value;
    if (typeof constant !== "string") return undefined;
    return (expression?.references?.length ?? 0) > 0 || isUnknownAt(side.unknown, path) ? constant : undefined;
  };
  return {
    raw: (path) => (isUnknownAt(side.unknown, path) ? undefined : valueAt(values, path)),
    template,
    shown(path) {
      const t = template(path);
      if (t !== undefined) return describeTemplate(t, side.label);
      if (isUnknownAt(side.unknown, path)) return KNOWN_AFTER_APPLY;
      const value = valueAt(values, path);
      if (value === undefined || value === null) return null;
      return typeof value === "object" ? JSON.stringify(value) : value;
    },
  };
}

const LABELLED_REFERENCE = /(\b[a-z][a-z0-9_]*\.[A-Za-z_][A-Za-z0-9_-]*\.[a-z_][a-z0-9_]*) \([^()]*\)/g;

/** A shown value without the AWS names added to references, for comparing two configurations by address. */
export function withoutNames<T>(value: T): T {
  return (typeof value === "string" ? value.replace(LABELLED_REFERENCE, "$1") : value) as T;
}

/** Readers for the before side (state) and the after side (plan) of a resource. */
export function readers(resource: PlannedResource, label: (ref: ResourceReference) => string): { before: ValueReader | null; after: ValueReader | null } {
  return {
    before: resource.before ? readerFor(resource.before) : null,
    after: resource.after ? readerFor(resource.after, { unknown: resource.afterUnknown, expressions: resource.expressions, label }) : null,
  };
}
