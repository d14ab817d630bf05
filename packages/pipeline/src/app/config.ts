/** What can change per environment without editing code: read from the environment by `main.ts`. */
export interface StackConfig {
  /** Terraform stack name (folder under cdktf.out/stacks). */
  readonly stackName: string;
  /** AWS region of the provider (`PIPELINE_REGION`, else `AWS_REGION`). */
  readonly region: string;
  /** Prefix of every AWS resource name. */
  readonly namePrefix: string;
}

const STACK_ENV = {
  stackName: "PIPELINE_STACK",
  region: "PIPELINE_REGION",
  namePrefix: "PIPELINE_NAME_PREFIX",
} as const;

/** The region when neither PIPELINE_REGION nor AWS_REGION is set. */
const DEFAULT_REGION = "us-east-1";

const REGION = /^[a-z]{2}(-gov)?-[a-z]+-\d$/;
const STACK_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** Reads PIPELINE_STACK, PIPELINE_REGION (else AWS_REGION) and PIPELINE_NAME_PREFIX, else the app's defaults. */
export function stackConfigFromEnv(env: NodeJS.ProcessEnv, defaults: Pick<StackConfig, "stackName" | "namePrefix">): StackConfig {
  const config = {
    stackName: env[STACK_ENV.stackName] || defaults.stackName,
    region: env[STACK_ENV.region] || env.AWS_REGION || DEFAULT_REGION,
    namePrefix: env[STACK_ENV.namePrefix] || defaults.namePrefix,
  };
  if (!STACK_NAME.test(config.stackName)) {
    throw new Error(`${STACK_ENV.stackName}="${config.stackName}" is not a valid stack name: use 1-64 letters, digits, '-' or '_'`);
  }
  if (!REGION.test(config.region)) {
    throw new Error(`${STACK_ENV.region}="${config.region}" is not an AWS region: use e.g. us-east-1`);
  }
  return config;
}
