import { LOG_DELIVERY_ACTIONS, XRAY_ACTIONS } from "@effectively-once/pipeline/settings";
import { describeTemplate, parseTemplate, type ResourceReference } from "@effectively-once/local-cloud/terraform-json";
import { KNOWN_AFTER_APPLY, type ValueReader } from "./planned";
import { StatementSource, type IamStatement } from "./types";

/** Action sets AWS documents as having no resource-level permissions, so `Resource: "*"` is required for them. */
const REQUIRED_WILDCARDS: readonly { actions: ReadonlySet<string>; reason: string }[] = [
  { actions: new Set<string>(LOG_DELIVERY_ACTIONS), reason: "CloudWatch Logs delivery actions support no resource-level permissions (AWS requires `*`)" },
  { actions: new Set<string>(XRAY_ACTIONS), reason: "X-Ray actions support no resource-level permissions (AWS requires `*`)" },
];

interface RawStatement {
  Sid?: unknown;
  Effect?: unknown;
  Action?: unknown;
  NotAction?: unknown;
  Resource?: unknown;
  NotResource?: unknown;
  Principal?: unknown;
  Condition?: unknown;
}

const list = (value: unknown): string[] => (value === undefined || value === null ? [] : Array.isArray(value) ? value.map(String) : [String(value)]);

function principalsOf(principal: unknown): string[] {
  if (principal === undefined) return [];
  if (typeof principal === "string") return [principal];
  if (principal && typeof principal === "object") {
    return Object.entries(principal as Record<string, unknown>).flatMap(([kind, ids]) => list(ids).map((id) => `${kind}: ${id}`));
  }
  return [String(principal)];
}

function requiredWildcard(actions: readonly string[]): string | null {
  const reasons = REQUIRED_WILDCARDS.filter((set) => actions.some((a) => set.actions.has(a)));
  const covered = actions.every((a) => reasons.some((set) => set.actions.has(a)));
  return covered && reasons.length > 0 ? reasons.map((r) => r.reason).join("; ") : null;
}

/** Normalizes one statement of a policy document; references inside ARNs are shown as resource addresses. */
function normalizeStatement(
  raw: RawStatement,
  context: { policy: string; source: StatementSource; role: string },
  label?: (ref: ResourceReference) => string,
): IamStatement {
  const notAction = raw.NotAction !== undefined;
  const actions = list(notAction ? raw.NotAction : raw.Action);
  const notResource = raw.NotResource !== undefined;
  const resources = list(notResource ? raw.NotResource : raw.Resource).map((r) => describeTemplate(r, label));
  const principals = principalsOf(raw.Principal);
  const wildcardActions = notAction ? actions.map((a) => `NotAction ${a}`) : actions.filter((a) => a.includes("*"));
  const wildcardResource =
    context.source === StatementSource.Trust ? principals.some((p) => p === "*" || p.endsWith(": *")) : notResource || resources.includes("*");
  return {
    ...context,
    sid: typeof raw.Sid === "string" && raw.Sid ? raw.Sid : null,
    effect: typeof raw.Effect === "string" ? raw.Effect : "Allow",
    actions,
    notAction,
    resources,
    notResource,
    principals,
    hasCondition: raw.Condition !== undefined,
    wildcardActions,
    wildcardResource,
    requiredWildcard: wildcardResource && wildcardActions.length === 0 && context.source !== StatementSource.Trust ? requiredWildcard(actions) : null,
  };
}

/** The role an inline policy belongs to: its name, also when the configuration references the role's id (IAM role ids are their names). */
function roleOf(r: ValueReader, label?: (ref: ResourceReference) => string): string {
  const template = r.template(["role"]);
  const parts = template === undefined ? [] : parseTemplate(template);
  const only = parts.length === 1 ? parts[0] : undefined;
  if (label && only && "ref" in only && only.ref.address.startsWith("aws_iam_role.") && (only.ref.attribute === "id" || only.ref.attribute === "name")) {
    return label({ ...only.ref, attribute: "name" });
  }
  return String(r.shown(["role"]) ?? KNOWN_AFTER_APPLY);
}

/** Parses a policy document (a JSON string, possibly a template with `${...}` inside its strings). */
function parsePolicy(text: string): RawStatement[] | undefined {
  try {
    const doc = JSON.parse(text) as { Statement?: unknown };
    const statements = doc.Statement;
    if (Array.isArray(statements)) return statements as RawStatement[];
    if (statements && typeof statements === "object") return [statements as RawStatement];
    return [];
  } catch {
    return undefined;
  }
}

/**
 * The IAM statements held by one side of a resource: inline role policies, role trust policies and managed
 * policies. `undefined` statements mean the policy exists but cannot be read at plan time.
 */
export function extractStatements(
  address: string,
  type: string,
  r: ValueReader,
  label?: (ref: ResourceReference) => string,
): { statements: IamStatement[]; policyUnknown: boolean } | undefined {
  const read = (attribute: string) => {
    const known = r.raw([attribute]);
    return r.template([attribute]) ?? (typeof known === "string" ? known : undefined);
  };
  let text: string | undefined;
  let source: StatementSource;
  let role: string;
  switch (type) {
    case "aws_iam_role_policy": {
      text = read("policy");
      source = StatementSource.Inline;
      role = roleOf(r, label);
      break;
    }
    case "aws_iam_role":
      text = read("assume_role_policy");
      source = StatementSource.Trust;
      role = String(r.shown(["name"]) ?? KNOWN_AFTER_APPLY);
      break;
    case "aws_iam_policy":
      text = read("policy");
      source = StatementSource.Managed;
      role = `(managed policy ${String(r.shown(["name"]) ?? KNOWN_AFTER_APPLY)})`;
      break;
    default:
      return undefined;
  }
  const raw = text === undefined ? undefined : parsePolicy(text);
  if (!raw) return { statements: [], policyUnknown: true };
  return { statements: raw.map((s) => normalizeStatement(s, { policy: address, source, role }, label)), policyUnknown: false };
}
