import { randomUUID } from "node:crypto";
import {
  configByAddress,
  expressionAt,
  managedChanges,
  valueAt,
  type ConfigResource,
  type JsonObject,
  type JsonValue,
  type PlanJson,
  type PlanResourceChange,
  type UnknownMarks,
} from "./plan-json";
import { arnOf, lambdaInvokeArn, queueUrlOf, renderTemplate, type ArnEnv, type ResourceReference } from "@effectively-once/local-cloud/terraform-json";

/**
 * Turns the planned values of a plan (typically an offline, create-only plan of the *base* configuration) into a
 * Terraform state file, so that `terraform plan -refresh=false` of the *head* configuration against it shows what
 * Terraform itself would do to those resources: update in place, or replace (delete then create).
 *
 * Values unknown until apply get placeholders shaped like the real thing (ARNs in the documented format with
 * account 000000000000, SQS URLs); attributes built from references (policies, redrive policies, definitions) are
 * computed from the configuration's templates with those placeholders, the way Terraform would. Nothing here
 * contacts AWS; the state only ever lives in a temporary directory.
 */

export const PLACEHOLDER_ACCOUNT = "000000000000";

export interface SeedState {
  readonly version: 4;
  readonly terraform_version: string;
  readonly serial: number;
  readonly lineage: string;
  readonly outputs: Record<string, never>;
  readonly resources: SeedResource[];
}

interface SeedResource {
  readonly module?: string;
  readonly mode: "managed";
  readonly type: string;
  readonly name: string;
  readonly provider: string;
  readonly instances: { index_key?: string | number; schema_version: number; attributes: JsonObject; sensitive_attributes: never[] }[];
}

export interface SeedResult {
  readonly state: SeedState;
  /** `address.path` of unknown values that could not be computed and were left null (each may show as a spurious update). */
  readonly unresolved: string[];
}

type Path = (string | number)[];
interface Pending {
  readonly path: Path;
  readonly template: JsonValue;
}
interface Seeding {
  readonly rc: PlanResourceChange;
  readonly config?: ConfigResource;
  readonly values: JsonObject;
  readonly pending: Pending[];
}

/** Computed collections AWS returns empty for these resources; null would read as "(known after apply)" on every plan. */
const EMPTY_COLLECTIONS: Record<string, Record<string, JsonValue>> = {
  aws_iam_role: { managed_policy_arns: [] },
};

const NAME_ATTRIBUTES = ["name", "function_name", "alarm_name", "dashboard_name", "statement_id"] as const;

function nameOf(rc: PlanResourceChange, values: JsonObject): string {
  for (const key of NAME_ATTRIBUTES) if (typeof values[key] === "string") return values[key] as string;
  return rc.name;
}

/** Where the placeholders live: the plan's region, the placeholder account, the commercial partition. */
const placeholderEnv = (region: string): ArnEnv => ({ partition: "aws", account: PLACEHOLDER_ACCOUNT, region });

/** ARNs in each service's documented format, so the provider's ARN validation accepts them when they are referenced. */
function placeholderArn(rc: PlanResourceChange, values: JsonObject, region: string): string {
  const name = nameOf(rc, values);
  const known = arnOf(rc.type, name, placeholderEnv(region));
  if (known !== undefined) return known;
  const [, service = "unknown", ...rest] = rc.type.split("_");
  return `arn:aws:${service}:${region}:${PLACEHOLDER_ACCOUNT}:${rest.join("-") || service}/${name}`;
}

/** Placeholder for a top-level computed attribute that no configuration expression explains; undefined = leave null. */
function identityPlaceholder(rc: PlanResourceChange, values: JsonObject, attribute: string, region: string): string | undefined {
  const arn = () => (typeof values.arn === "string" ? values.arn : placeholderArn(rc, values, region));
  if (attribute === "arn" || attribute === "dashboard_arn") return placeholderArn(rc, values, region);
  if (rc.type === "aws_sqs_queue" && (attribute === "url" || attribute === "id")) return queueUrlOf(nameOf(rc, values), placeholderEnv(region));
  if (rc.type === "aws_lambda_function") {
    if (attribute === "invoke_arn") return lambdaInvokeArn(arn(), placeholderEnv(region));
    if (attribute === "qualified_arn") return `${arn()}:$LATEST`;
    if (attribute === "version") return "$LATEST";
  }
  return undefined;
}

/** The `id` Terraform's provider would set, for the resource types whose id other resources use. */
function placeholderId(rc: PlanResourceChange, values: JsonObject): string {
  switch (rc.type) {
    case "aws_sfn_state_machine":
      return String(values.arn);
    case "aws_iam_role_policy":
      return `${values.role}:${values.name}`;
    case "aws_sqs_queue_redrive_allow_policy":
    case "aws_sqs_queue_redrive_policy":
    case "aws_sqs_queue_policy":
      return String(values.queue_url);
    default:
      return nameOf(rc, values);
  }
}

/** Every leaf marked unknown, as a path. A whole unknown block is one leaf. */
function unknownPaths(marks: UnknownMarks | undefined, prefix: Path = []): Path[] {
  if (marks === true) return [prefix];
  if (!marks || typeof marks !== "object") return [];
  const entries: [string | number, UnknownMarks][] = Array.isArray(marks) ? marks.map((m, i) => [i, m]) : Object.entries(marks);
  return entries.flatMap(([key, mark]) => unknownPaths(mark, [...prefix, key]));
}

function setAt(root: JsonObject, path: Path, value: JsonValue): void {
  let node: JsonValue = root;
  for (let i = 0; i < path.length - 1; i++) {
    const step = path[i];
    const container = node as Record<string | number, JsonValue>;
    if (container[step] === null || container[step] === undefined || typeof container[step] !== "object") {
      container[step] = typeof path[i + 1] === "number" ? [] : {};
    }
    node = container[step];
  }
  (node as Record<string | number, JsonValue>)[path[path.length - 1]] = value;
}

function regionOf(plan: PlanJson, fallback: string): string {
  const region = plan.configuration?.provider_config?.aws?.expressions?.region;
  const value = region && !Array.isArray(region) ? region.constant_value : undefined;
  return typeof value === "string" ? value : fallback;
}

/** Evaluates a constant (string template, or a map/list holding templates); undefined while a reference is still unknown. */
function evaluate(template: JsonValue, resolve: (ref: ResourceReference) => string | undefined): JsonValue | undefined {
  if (typeof template === "string") return renderTemplate(template, resolve);
  if (Array.isArray(template)) {
    const out: JsonValue[] = [];
    for (const item of template) {
      const value = evaluate(item, resolve);
      if (value === undefined) return undefined;
      out.push(value);
    }
    return out;
  }
  if (template && typeof template === "object") {
    const out: JsonObject = {};
    for (const [key, item] of Object.entries(template)) {
      const value = evaluate(item, resolve);
      if (value === undefined) return undefined;
      out[key] = value;
    }
    return out;
  }
  return template;
}

function providerAddress(rc: PlanResourceChange): string {
  const full = (rc as { provider_name?: string }).provider_name ?? "registry.terraform.io/hashicorp/aws";
  return `provider["${full}"]`;
}

/**
 * The values of the data sources Terraform read while planning (`prior_state`), by address: the partition, region and
 * account every ARN and the definition are built on, so a template that mixes them with resource attributes settles.
 */
function dataSourceValues(plan: PlanJson): Map<string, JsonObject> {
  const resources = (plan.prior_state as { values?: { root_module?: { resources?: { address: string; mode: string; values?: JsonObject }[] } } } | undefined)?.values?.root_module?.resources ?? [];
  return new Map(resources.filter((r) => r.mode === "data" && r.values).map((r) => [r.address, r.values!]));
}

export function seedStateFromPlan(plan: PlanJson, options: { region?: string; terraformVersion?: string } = {}): SeedResult {
  const region = regionOf(plan, options.region ?? "us-east-1");
  const data = dataSourceValues(plan);
  const config = configByAddress(plan);
  const seedings = new Map<string, Seeding>();
  const unresolved: string[] = [];

  for (const rc of managedChanges(plan)) {
    if (!rc.change.after) continue;
    const values = structuredClone(rc.change.after) as JsonObject;
    const seeding: Seeding = { rc, config: config.get(rc.address.replace(/\[[^\]]*\]$/, "")), values, pending: [] };
    for (const path of unknownPaths(rc.change.after_unknown)) {
      const expression = expressionAt(seeding.config?.expressions, path);
      if (expression && expression.constant_value !== undefined) {
        seeding.pending.push({ path, template: expression.constant_value });
        setAt(values, path, null);
        continue;
      }
      const top = String(path[0]);
      const placeholder = path.length === 1 ? (identityPlaceholder(rc, values, top, region) ?? EMPTY_COLLECTIONS[rc.type]?.[top]) : undefined;
      setAt(values, path, placeholder ?? null);
    }
    seedings.set(rc.address, seeding);
  }

  // ids of policies derive from resolved templates (role, queue_url): fill them after the templates settle.
  const needsId = new Set([...seedings.values()].filter((s) => s.values.id === null).map((s) => s.rc.address));
  const resolve = (ref: ResourceReference): string | undefined => {
    if (ref.mode === "data") {
      const value = valueAt(data.get(ref.address) ?? {}, [ref.attribute, ...ref.path]);
      return value === null || value === undefined || typeof value === "object" ? undefined : String(value);
    }
    const target = seedings.get(ref.address);
    if (!target) return undefined;
    if (ref.attribute === "id" && needsId.has(ref.address)) return undefined;
    if (target.pending.some((p) => p.path[0] === ref.attribute)) return undefined;
    const value = valueAt(target.values, [ref.attribute, ...ref.path]);
    return value === null || value === undefined || typeof value === "object" ? undefined : String(value);
  };

  for (let progress = true; progress; ) {
    progress = false;
    for (const seeding of seedings.values()) {
      for (const item of [...seeding.pending]) {
        const value = evaluate(item.template, resolve);
        if (value === undefined) continue;
        setAt(seeding.values, item.path, value);
        seeding.pending.splice(seeding.pending.indexOf(item), 1);
        progress = true;
      }
      if (needsId.has(seeding.rc.address) && seeding.pending.length === 0) {
        seeding.values.id = placeholderId(seeding.rc, seeding.values);
        needsId.delete(seeding.rc.address);
        progress = true;
      }
    }
  }

  const resources: SeedResource[] = [];
  for (const seeding of seedings.values()) {
    for (const item of seeding.pending) unresolved.push(`${seeding.rc.address}.${item.path.join(".")}`);
    if (needsId.has(seeding.rc.address)) seeding.values.id = placeholderId(seeding.rc, seeding.values);
    const { rc } = seeding;
    const index = (rc as { index?: string | number }).index;
    const module = (rc as { module_address?: string }).module_address;
    let resource = resources.find((r) => r.type === rc.type && r.name === rc.name && r.module === module);
    if (!resource) {
      resource = { ...(module ? { module } : {}), mode: "managed", type: rc.type, name: rc.name, provider: providerAddress(rc), instances: [] };
      resources.push(resource);
    }
    resource.instances.push({
      ...(index !== undefined ? { index_key: index } : {}),
      schema_version: seeding.config?.schema_version ?? 0,
      attributes: seeding.values,
      sensitive_attributes: [],
    });
  }
  return {
    state: { version: 4, terraform_version: options.terraformVersion ?? "1.0.0", serial: 1, lineage: randomUUID(), outputs: {}, resources },
    unresolved,
  };
}
