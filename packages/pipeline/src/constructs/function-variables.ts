import { ContractEnv, contractEnvironment, rejectionErrorsEnvironment } from "@effectively-once/contract";
import type { ResolvedPipelineProps } from "./props";
import { functionSecondLayerEnvironment } from "./resolve-props";
import { escapeTerraformTemplate } from "./terraform-text";

/**
 * The downstream function's environment, as deployed: the team's variables, then the ones the construct sets (which
 * win). One function for the construct, for the rule that measures it against Lambda's 4 KB (function-rules.ts), and
 * for the tools that run the function without deploying it (the simulation, the harness's function tests).
 */
export function functionVariables(p: ResolvedPipelineProps, idempotencyTableName: string): Record<string, string> {
  return { ...p.function.environment, ...constructVariables(p, idempotencyTableName) };
}

/** Powertools' service name (logs' `service` key, the fate metrics' `service` dimension): the pipeline's `namePrefix`. */
export function serviceNameOf(p: Pick<ResolvedPipelineProps, "namePrefix">): string {
  return p.namePrefix;
}

/**
 * The environment as written into the Terraform JSON: the team's values with a literal `${` or `%{` escaped (they
 * reach Lambda as given), the construct's own as they are (they hold Terraform references).
 */
export function terraformFunctionVariables(p: ResolvedPipelineProps, idempotencyTableName: string): Record<string, string> {
  const team = Object.entries(p.function.environment).map(([name, value]): [string, string] => [name, escapeTerraformTemplate(value)]);
  return { ...Object.fromEntries(team), ...constructVariables(p, idempotencyTableName) };
}

/** The variables the construct sets itself; a team variable of the same name would be overwritten. */
export function constructVariables(p: ResolvedPipelineProps, idempotencyTableName: string): Record<string, string> {
  return {
    [ContractEnv.IdempotencyTableName]: idempotencyTableName,
    [ContractEnv.ExpiresAfterSeconds]: String(p.retentionSeconds),
    ...contractEnvironment(p),
    // How the second layer's record ids are formed: never from the function's name (second-layer-ids.ts).
    ...functionSecondLayerEnvironment(p),
    [ContractEnv.ServiceName]: serviceNameOf(p),
    [ContractEnv.LogLevel]: p.function.logLevel,
    // The records of a batch event worked on at once: the workflow's own bound on records in flight.
    ...(p.batchInvocation ? { [ContractEnv.BatchConcurrency]: String(p.maxConcurrency) } : {}),
    // The names the workflow quarantines beyond the contract's: the function logs them as rejections, so the
    // function-errors alarm does not page for them (none added: no variable).
    ...rejectionErrorsEnvironment(p.function.permanentErrors, p.function.conflictErrors),
  };
}
