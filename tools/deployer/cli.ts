import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { partitionOfRegion } from "@effectively-once/contract";
import { loadStack, stackRegion } from "./load-stack";
import { DeployerPolicyError, deployerPolicy, MANAGED_POLICY_LIMIT } from "./policy";

const DEPLOYER_HELP = `Usage: npm run deployer-policy -- [options]

Writes the least-privilege IAM policy for whoever runs cdktf deploy (plan, apply, re-plan, destroy) of one
synthesized stack: each resource's actions on the stack's own ARNs, iam:PassRole only for the stack's roles to their
own services, sts:AssumeRole on them denied (docs/deploy.md says why).

  --stack-file F   the synthesized stack (cdktf.out/stacks/<stack>/cdk.tf.json); default: synthesize PIPELINE_APP
  --account ID     the 12-digit account (default: * in every ARN, still scoped by the stack's names)
  --region R       default: the provider's region in the stack
  --out F          write the policy to F instead of stdout
  -h, --help       this text
`;

export interface DeployerIo {
  readonly env: NodeJS.ProcessEnv;
  readonly stdout: (text: string) => void;
  readonly stderr: (line: string) => void;
}

/** Returns the exit code: 0 written, 2 bad input (a flag, or a stack the generator cannot cover). */
export async function runDeployerPolicyCli(argv: readonly string[], io: DeployerIo): Promise<number> {
  let values;
  try {
    values = parseArgs({ args: [...argv], options: { "stack-file": { type: "string" }, account: { type: "string" }, region: { type: "string" }, out: { type: "string" }, help: { type: "boolean", short: "h" } }, strict: true }).values;
  } catch (error) {
    io.stderr(`deployer-policy: ${(error as Error).message} (see --help)`);
    return 2;
  }
  if (values.help) {
    io.stdout(DEPLOYER_HELP);
    return 0;
  }
  if (values.account !== undefined && !/^\d{12}$/.test(values.account)) {
    io.stderr(`deployer-policy: --account ${values.account}: an AWS account id is 12 digits`);
    return 2;
  }
  try {
    const stack = loadStack(values["stack-file"], io.env);
    const region = values.region ?? stackRegion(stack);
    if (!region) {
      io.stderr("deployer-policy: the stack's provider takes its region from the environment: pass --region");
      return 2;
    }
    const env = { partition: partitionOfRegion(region), account: values.account ?? "*", region };
    const result = await deployerPolicy(stack, env);
    const text = `${JSON.stringify(result.policy, null, 2)}\n`;
    if (values.out) writeFileSync(values.out, text);
    else io.stdout(text);
    io.stderr(`deployer-policy: ${stack.source} in ${region} (${env.partition}), account ${env.account}: ${result.policy.Statement.length} statements, ${result.size} of IAM's ${MANAGED_POLICY_LIMIT} characters for a managed policy${result.size > MANAGED_POLICY_LIMIT ? " (TOO LARGE: split it into two policies)" : ""}`);
    io.stderr(`  on "*" (AWS documents no resource-level permissions for them): ${result.wildcardActions.join(", ")}`);
    io.stderr(result.boundary ? `  every stack role must carry the permissions boundary ${result.boundary}` : "  no permissions boundary on the stack's roles: the deployer can write any inline policy into them (see docs/deploy.md)");
    return 0;
  } catch (error) {
    if (error instanceof DeployerPolicyError) {
      io.stderr(`deployer-policy: ${error.message}`);
      return 2;
    }
    throw error;
  }
}
