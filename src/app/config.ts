/** What can change per environment without editing code: read from the environment by `main.ts`. */
export interface StackConfig {
  /** Terraform stack name (folder under cdktf.out/stacks). */
  readonly stackName: string;
  readonly region: string;
  /** Prefix of every AWS resource name. */
  readonly namePrefix: string;
}

export const STACK_ENV = {
  stackName: "PIPELINE_STACK",
  region: "PIPELINE_REGION",
  namePrefix: "PIPELINE_NAME_PREFIX",
} as const;

export const STACK_DEFAULTS: StackConfig = { stackName: "payments-pipeline", region: "us-east-1", namePrefix: "payments" };

const REGION = /^[a-z]{2}(-gov)?-[a-z]+-\d$/;
const STACK_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** Reads PIPELINE_STACK, PIPELINE_REGION (else AWS_REGION) and PIPELINE_NAME_PREFIX, with defaults. */
export function stackConfigFromEnv(env: NodeJS.ProcessEnv): StackConfig {
  const config = {
    stackName: env[STACK_ENV.stackName] || STACK_DEFAULTS.stackName,
    region: env[STACK_ENV.region] || env.AWS_REGION || STACK_DEFAULTS.region,
    namePrefix: env[STACK_ENV.namePrefix] || STACK_DEFAULTS.namePrefix,
  };
  if (!STACK_NAME.test(config.stackName)) {
    throw new Error(`${STACK_ENV.stackName}="${config.stackName}" is not a valid stack name: use 1-64 letters, digits, '-' or '_'`);
  }
  if (!REGION.test(config.region)) {
    throw new Error(`${STACK_ENV.region}="${config.region}" is not an AWS region: use e.g. us-east-1`);
  }
  return config;
}
