/**
 * No two constructs of one stack may create the same AWS name. Terraform does not notice (two `aws_sqs_queue`
 * resources with one `name` pass `terraform validate`), and AWS then answers the second create in its own way: an
 * error half way through the apply (IAM's CreateRole, DynamoDB's CreateTable), or the first resource silently shared
 * (SQS's CreateQueue returns an existing queue whose attributes match; PutDashboard overwrites). Every construct of
 * this package claims its names here when it is built; a claim on a name another construct holds is refused with both
 * constructs' paths, every clash at once.
 */
import { TerraformStack } from "cdktf";
import type { Construct } from "constructs";
import { NAME_LIMITS } from "./aws-limits";
import { InvalidPropError, type PropProblem } from "./errors";
import { NameKind, type ResourceName } from "./resource-names";

interface Claim {
  readonly path: string;
  readonly resource: string;
}

/** Per stack: `<kind> <name>` → who created it. A stack's constructs all use its default aws provider (one region). */
const claims = new WeakMap<TerraformStack, Map<string, Claim>>();

/** The policy name is unique per role, not per account or region: it never clashes across roles. */
const UNSCOPED: ReadonlySet<NameKind> = new Set([NameKind.IamRolePolicy]);

/**
 * Claims `names` for `owner` in its stack, or throws one error naming every clash. `prefixProp` is the prop to blame
 * (the names all derive from it). Account-wide names must be given in one region text for every construct of the
 * stack (they share the provider), so that two pipelines' references to their own `data "aws_region"` compare equal.
 */
export function claimStackNames(owner: Construct, prefix: { readonly prop: string; readonly value: string }, names: readonly ResourceName[]): void {
  const stack = TerraformStack.of(owner);
  const held = claims.get(stack) ?? new Map<string, Claim>();
  claims.set(stack, held);
  const problems: PropProblem[] = [];
  const mine = names.filter((n) => !UNSCOPED.has(n.kind));
  for (const n of mine) {
    const other = held.get(`${n.kind} ${n.name}`);
    if (other === undefined) continue;
    problems.push({
      prop: prefix.prop,
      value: prefix.value,
      reason: `makes the ${NAME_LIMITS[n.kind].service} "${n.name}" (the ${n.resource} of ${owner.node.path}), which ${other.path} already creates in this stack as its ${other.resource}`,
      fix: `give each pipeline in a stack its own ${prefix.prop} (two environments in one region need two prefixes; one prefix may serve many regions)`,
    });
  }
  if (problems.length > 0) throw InvalidPropError.of(problems);
  for (const n of mine) held.set(`${n.kind} ${n.name}`, { path: owner.node.path, resource: n.resource });
}
