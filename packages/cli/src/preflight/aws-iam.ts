import { GetAccountSummaryCommand, GetRoleCommand, IAMClient, SimulatePrincipalPolicyCommand, type ContextEntry } from "@aws-sdk/client-iam";
import type { ClientConfig } from "./client-config";

/** One simulated call and IAM's verdict, with what decided it. */
export interface SimulatedCall {
  readonly action: string;
  readonly resource: string;
  /** `allowed`, `implicitDeny` or `explicitDeny`. */
  readonly decision: string;
  /** False when an SCP of the organization denies it. */
  readonly allowedByOrganizations?: boolean;
  /** False when the caller's permissions boundary denies it. */
  readonly allowedByBoundary?: boolean;
}

export interface IamReader {
  /** GetAccountSummary's counts and quotas (Roles, RolesQuota, RolePolicySizeQuota …). */
  accountSummary(): Promise<ReadonlyMap<string, number>>;
  /** The role's ARN with its path (an assumed-role ARN drops the path). */
  roleArn(name: string): Promise<string>;
  simulate(principalArn: string, actions: readonly string[], resources: readonly string[], context: readonly (readonly [string, string])[]): Promise<SimulatedCall[]>;
}

export function awsIamReader(config: ClientConfig): IamReader {
  const iam = new IAMClient(config);
  return {
    async accountSummary() {
      const out = await iam.send(new GetAccountSummaryCommand({}));
      return new Map(Object.entries(out.SummaryMap ?? {}).filter((e): e is [string, number] => typeof e[1] === "number"));
    },
    async roleArn(name) {
      const out = await iam.send(new GetRoleCommand({ RoleName: name }));
      return out.Role?.Arn ?? name;
    },
    async simulate(principalArn, actions, resources, context) {
      const ContextEntries: ContextEntry[] = context.map(([key, value]) => ({ ContextKeyName: key, ContextKeyValues: [value], ContextKeyType: "string" }));
      const results: SimulatedCall[] = [];
      let Marker: string | undefined;
      do {
        const page = await iam.send(
          new SimulatePrincipalPolicyCommand({ PolicySourceArn: principalArn, ActionNames: [...actions], ResourceArns: [...resources], ContextEntries, Marker }),
        );
        for (const r of page.EvaluationResults ?? []) {
          results.push({
            action: r.EvalActionName ?? "?",
            resource: r.EvalResourceName ?? "*",
            decision: r.EvalDecision ?? "?",
            ...(r.OrganizationsDecisionDetail ? { allowedByOrganizations: r.OrganizationsDecisionDetail.AllowedByOrganizations } : {}),
            ...(r.PermissionsBoundaryDecisionDetail ? { allowedByBoundary: r.PermissionsBoundaryDecisionDetail.AllowedByPermissionsBoundary } : {}),
          });
        }
        Marker = page.IsTruncated ? page.Marker : undefined;
      } while (Marker);
      return results;
    },
  };
}
