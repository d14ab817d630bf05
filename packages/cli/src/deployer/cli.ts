import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { partitionOfRegion } from "@effectively-once/contract";
import { loadStack, stackRegion } from "./load-stack";
import { DeployerPolicyError, deployerPolicy, MANAGED_POLICY_LIMIT } from "./policy";
import { MANAGED_POLICIES_PER_PRINCIPAL, policySize } from "./split";

const DEPLOYER_HELP = `Usage: npx effectively-once deployer-policy [options]

Writes the least-privilege IAM policies for whoever runs cdktf deploy of one synthesized stack, in two sets:
  deploy    plan, apply, re-plan and in-place changes (and the remote state's rights, when the stack has an S3 backend)
  teardown  deletion protection off and destroy: attach it beside the deploy set only to tear down
Each set is split into managed policies of at most ${MANAGED_POLICY_LIMIT} characters. Each resource's actions on the stack's own
ARNs, iam:PassRole only for the stack's roles to their own services, sts:AssumeRole on them denied (docs/deploy.md).

  --stack-file F   the synthesized stack (cdktf.out/stacks/<stack>/cdk.tf.json); default: synthesize PIPELINE_APP
  --account ID     the 12-digit account (default: * in every ARN, still scoped by the stack's names)
  --region R       default: the provider's region in the stack
  --out F          write {"deploy": [policy, ...], "teardown": [policy, ...]} to F instead of stdout
  --out-dir D      write each policy to its own file in D: deploy-1.json, ..., teardown-1.json, ...
  -h, --help       this text
`;

export interface DeployerIo {
  readonly env: NodeJS.ProcessEnv;
  readonly stdout: (text: string) => void;
  readonly stderr: (line: string) => void;
}

const sizes = (docs: readonly Parameters<typeof policySize>[0][]) => docs.map((d) => policySize(d).toLocaleString("en-US")).join(" + ");

/** Returns the exit code: 0 written, 2 bad input (a flag, or a stack the generator cannot cover). */
export async function runDeployerPolicyCli(argv: readonly string[], io: DeployerIo): Promise<number> {
  let values;
  try {
    values = parseArgs({ args: [...argv], options: { "stack-file": { type: "string" }, account: { type: "string" }, region: { type: "string" }, out: { type: "string" }, "out-dir": { type: "string" }, help: { type: "boolean", short: "h" } }, strict: true }).values;
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
    const sets = { deploy: result.deploy, teardown: result.teardown };
    if (values["out-dir"]) {
      mkdirSync(values["out-dir"], { recursive: true });
      for (const [set, docs] of Object.entries(sets)) docs.forEach((doc, i) => writeFileSync(join(values["out-dir"]!, `${set}-${i + 1}.json`), `${JSON.stringify(doc, null, 2)}\n`));
    } else {
      const text = `${JSON.stringify(sets, null, 2)}\n`;
      if (values.out) writeFileSync(values.out, text);
      else io.stdout(text);
    }
    io.stderr(`deployer-policy: ${stack.source} in ${region} (${env.partition}), account ${env.account}`);
    io.stderr(`  deploy: ${result.deploy.length} managed ${result.deploy.length === 1 ? "policy" : "policies"} (${sizes(result.deploy)} of IAM's ${MANAGED_POLICY_LIMIT} characters each)`);
    io.stderr(`  teardown: ${result.teardown.length} managed ${result.teardown.length === 1 ? "policy" : "policies"} (${sizes(result.teardown)}), attached beside the deploy set only to tear down`);
    if (result.deploy.length + result.teardown.length > MANAGED_POLICIES_PER_PRINCIPAL) io.stderr(`  more than the ${MANAGED_POLICIES_PER_PRINCIPAL} managed policies IAM attaches to a principal by default: ask for the quota's increase (up to 20)`);
    io.stderr(`  on "*" (AWS documents no resource-level permissions for them): ${result.wildcardActions.join(", ")}`);
    io.stderr(result.boundary ? `  every stack role must carry the permissions boundary ${result.boundary}` : "  no permissions boundary on the stack's roles: the deployer can write any inline policy into them (set permissionsBoundary, docs/deploy.md)");
    io.stderr(result.backend ? `  remote state: ${result.backend}` : "  no S3 backend in the stack: local state, no rights for it (docs/deploy.md, \"Remote state\")");
    if (result.providerNote) io.stderr(`  WARNING: ${result.providerNote}`);
    return 0;
  } catch (error) {
    if (error instanceof DeployerPolicyError) {
      io.stderr(`deployer-policy: ${error.message}`);
      return 2;
    }
    throw error;
  }
}
