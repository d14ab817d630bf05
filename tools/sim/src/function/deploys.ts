/**
 * The function's deployments in the simulation. A scenario's `rename` op deploys the function again under a new
 * name, as a refactor does (`function.name` changed, the construct moved): Lambda replaces the function, the state
 * machine invokes the new one from then on, invocations already running finish on the old one, and the tables keep
 * their data. Only what the Lambda runtime sets changes with the name (`AWS_LAMBDA_FUNCTION_NAME`); the construct's
 * own variables do not, and so nothing the pipeline remembers may change with it.
 *
 * A `rollback` op deploys the previous release's function under the same name (docs/upgrading.md, "Rolling back to
 * release 0.2"): that release's handler honours only its own second-layer ids (Powertools' default prefix, the
 * function's name; no legacy prefix), never the records this release wrote, and its configuration says so. The
 * simulation runs this release's wrapper with those ids (keeping the digest: 0.2's MD5 is refused by this wrapper, and
 * the ids differ either way, which is what a rollback changes). `pipeline-ops` must count only the records the
 * deployed function honours, read from its configuration (packages/ops/src/function-ids.ts).
 */
import type { LambdaInvoker } from "@effectively-once/local-cloud/emulators";
import { createSimFunction } from "./downstream";
import { ContractEnv } from "@effectively-once/contract";
import { SIM_NAMES } from "../settings";

/** The variable Lambda sets to the function's name (never the construct). */
const RUNTIME_FUNCTION_NAME = "AWS_LAMBDA_FUNCTION_NAME";

type SimFunctionOptions = Parameters<typeof createSimFunction>[0];

export interface FunctionDeploys {
  /** Invokes the function deployed now (Step Functions' Invoke reaches whatever the definition names). */
  readonly invoker: LambdaInvoker;
  /** Deploys the function again under the next name; returns it. */
  rename(): string;
  /** Deploys the previous release's function under the current name (its own second-layer ids); returns the name. */
  rollback(): string;
  /** What Lambda's GetFunctionConfiguration answers for the function deployed now: its name and its own variables. */
  configuration(): { readonly functionName: string; readonly variables: Readonly<Record<string, string>> };
}

/** The n-th name the simulated function gets (0: the first deploy's). */
function simFunctionName(deploy: number): string {
  return deploy === 0 ? SIM_NAMES.functionName : `${SIM_NAMES.functionName}-r${deploy}`;
}

export function createFunctionDeploys(options: SimFunctionOptions): FunctionDeploys {
  let deploys = 0;
  let environment = options.environment;
  let current = createSimFunction(options);
  const deploy = (variables: Record<string, string>) => {
    environment = variables;
    current = createSimFunction({ ...options, environment });
  };
  return {
    invoker: (req, signal) => current(req, signal),
    rename() {
      const name = simFunctionName(++deploys);
      deploy({ ...environment, [RUNTIME_FUNCTION_NAME]: name });
      return name;
    },
    rollback() {
      const name = simFunctionName(deploys);
      const { [ContractEnv.IdempotencyLegacyKeyPrefix]: _legacy, ...rest } = environment;
      deploy({ ...rest, [ContractEnv.IdempotencyKeyPrefix]: name });
      return name;
    },
    configuration() {
      // The configuration holds the construct's variables only: the runtime's own (AWS_*) are set at run time.
      const variables = Object.fromEntries(Object.entries(environment).filter(([name]) => !name.startsWith("AWS_")));
      return { functionName: simFunctionName(deploys), variables };
    },
  };
}
