/**
 * The function's deployments in the simulation. A scenario's `rename` op deploys the function again under a new
 * name, as a refactor does (`function.name` changed, the construct moved): Lambda replaces the function, the state
 * machine invokes the new one from then on, invocations already running finish on the old one, and the tables keep
 * their data. Only what the Lambda runtime sets changes with the name (`AWS_LAMBDA_FUNCTION_NAME`); the construct's
 * own variables do not, and so nothing the pipeline remembers may change with it.
 */
import type { LambdaInvoker } from "@effectively-once/local-cloud/emulators";
import { createSimFunction } from "./function";
import { SIM_NAMES } from "./settings";

/** The variable Lambda sets to the function's name (never the construct). */
const RUNTIME_FUNCTION_NAME = "AWS_LAMBDA_FUNCTION_NAME";

type SimFunctionOptions = Parameters<typeof createSimFunction>[0];

export interface FunctionDeploys {
  /** Invokes the function deployed now (Step Functions' Invoke reaches whatever the definition names). */
  readonly invoker: LambdaInvoker;
  /** Deploys the function again under the next name; returns it. */
  rename(): string;
  /** What Lambda's GetFunctionConfiguration answers for the function deployed now: its name and its own variables. */
  configuration(): { readonly functionName: string; readonly variables: Readonly<Record<string, string>> };
}

/** The n-th name the simulated function gets (0: the first deploy's). */
function simFunctionName(deploy: number): string {
  return deploy === 0 ? SIM_NAMES.functionName : `${SIM_NAMES.functionName}-r${deploy}`;
}

export function createFunctionDeploys(options: SimFunctionOptions): FunctionDeploys {
  let deploys = 0;
  let current = createSimFunction(options);
  return {
    invoker: (req, signal) => current(req, signal),
    rename() {
      const name = simFunctionName(++deploys);
      current = createSimFunction({ ...options, environment: { ...options.environment, [RUNTIME_FUNCTION_NAME]: name } });
      return name;
    },
    configuration() {
      // The configuration holds the construct's variables only: the runtime's own (AWS_*) are set at run time.
      const variables = Object.fromEntries(Object.entries(options.environment).filter(([name]) => !name.startsWith("AWS_")));
      return { functionName: simFunctionName(deploys), variables };
    },
  };
}
