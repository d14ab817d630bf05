import type { ArnEnv, SynthesizedStack } from "@effectively-once/local-cloud/terraform-json";
import { deployerPolicy } from "../deployer/policy";
import type { IamReader, SimulatedCall } from "./aws-iam";
import type { Finding } from "./finding";

/**
 * The principal IAM's simulator takes for the caller. An assumed-role session (`arn:aws:sts::…:assumed-role/NAME/
 * SESSION`) is simulated as its role, whose ARN (with its path, which the session ARN drops) GetRole gives. The root
 * user and federated users cannot be simulated.
 */
async function simulatedPrincipal(callerArn: string, iam: IamReader): Promise<{ arn: string } | { skip: string }> {
  const assumed = /^arn:([^:]+):sts::(\d{12}):assumed-role\/([^/]+)\/.+$/.exec(callerArn);
  if (assumed) return { arn: await iam.roleArn(assumed[3]) };
  if (/^arn:[^:]+:iam::\d{12}:root$/.test(callerArn)) return { skip: "the caller is the account's root user, which SimulatePrincipalPolicy does not take (root may do everything an SCP does not deny; deploy with a role instead)" };
  if (/^arn:[^:]+:sts::\d{12}:federated-user\//.test(callerArn)) return { skip: "the caller is a federated user (GetFederationToken), which SimulatePrincipalPolicy does not take" };
  return { arn: callerArn };
}

/** `StringEquals` conditions with one value each: the context the simulated request carries (iam:PassedToService …). */
function contextOf(statement: Record<string, unknown>): [string, string][] {
  const equals = (statement.Condition as { StringEquals?: Record<string, unknown> } | undefined)?.StringEquals ?? {};
  return Object.entries(equals).filter((e): e is [string, string] => typeof e[1] === "string");
}

const list = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : [String(value)]);

function why(call: SimulatedCall): string {
  if (call.allowedByOrganizations === false) return "an SCP of the organization denies it";
  if (call.allowedByBoundary === false) return "the caller's permissions boundary denies it";
  return call.decision === "explicitDeny" ? "a policy of the caller denies it" : "no policy of the caller allows it";
}

/**
 * The caller's rights against the deployer policy (`npx effectively-once deployer-policy`), through iam:SimulatePrincipalPolicy:
 * identity policies, permissions boundary and SCPs count; session policies (passed to AssumeRole) are not evaluated.
 */
export async function permissionFindings(iam: IamReader, callerArn: string, stack: SynthesizedStack, env: ArnEnv): Promise<Finding[]> {
  const principal = await simulatedPrincipal(callerArn, iam);
  if ("skip" in principal) return [{ level: "warn", text: `deployer rights not simulated: ${principal.skip}` }];
  const { policy } = await deployerPolicy(stack, env);
  const denied: SimulatedCall[] = [];
  let simulated = 0;
  for (const statement of policy.Statement.filter((s) => s.Effect === "Allow")) {
    const calls = await iam.simulate(principal.arn, list(statement.Action), list(statement.Resource), contextOf(statement));
    simulated += calls.length;
    denied.push(...calls.filter((c) => c.decision !== "allowed"));
  }
  const note = "session policies are not evaluated";
  if (denied.length === 0) return [{ level: "ok", text: `deployer rights: ${principal.arn} may make all ${simulated} simulated calls of the deployer policy (${note})` }];
  return [
    ...denied.map((c): Finding => ({ level: "fail", text: `deployer rights: ${principal.arn} may not ${c.action} on ${c.resource}: ${why(c)}` })),
    { level: "info", text: `deployer rights: ${denied.length} of ${simulated} calls denied. Fix: attach the policy \`npx effectively-once deployer-policy\` writes to ${principal.arn} (${note})` },
  ];
}
