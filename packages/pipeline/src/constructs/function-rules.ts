import { Token } from "cdktf";
import { ContractEnv, lambdaEnvironmentBytes, rejectionErrorsEnvironment } from "@effectively-once/contract";
import {
  ASSUMED_ACCOUNT_CONCURRENCY,
  cite,
  CONCURRENCY_SOURCE,
  LAMBDA_APPLICATION_LOG_LEVELS,
  LAMBDA_ENVIRONMENT_MAX_BYTES,
  LAMBDA_ENVIRONMENT_SOURCE,
  LAMBDA_RESERVED_VARIABLES,
  LAMBDA_RESERVED_VARIABLES_SOURCE,
  LAMBDA_VARIABLE_NAME,
  LAMBDA_VARIABLE_NAME_SOURCE,
  UNRESERVED_CONCURRENCY_MIN,
} from "./aws-limits";
import type { PropProblem } from "./errors";
import { constructVariables, functionVariables } from "./function-variables";
import { compareVersions, LambdaRuntime, RUNTIME_MIN_PROVIDER, RUNTIMES_SOURCE } from "./lambda-runtime";
import type { PropRule } from "./prop-rules";
import type { ResolvedPipelineProps } from "./props";
import { pipelineResourceNames } from "./resource-names";

const RESERVED = new Set<string>(LAMBDA_RESERVED_VARIABLES);
const RUNTIMES = new Set<string>(Object.values(LambdaRuntime));
/** The levels the prop offers, each one Lambda's logging configuration and Powertools both accept. */
const FUNCTION_LOG_LEVELS = new Set<string>(["DEBUG", "INFO", "WARN", "ERROR"].filter((l) => (LAMBDA_APPLICATION_LOG_LEVELS as readonly string[]).includes(l)));

const ERROR_NAMES_SOURCE = "function.permanentErrors and conflictErrors";

/** Which prop a variable of the function's environment comes from, for the size problem. */
const SOURCE_OF_VARIABLE = new Map<string, string>([
  [ContractEnv.FieldRules, "fieldRules"],
  [ContractEnv.PayloadFields, "payloadFields"],
  [ContractEnv.IdempotencyTableName, "namePrefix"],
  [ContractEnv.ServiceName, "namePrefix"],
  [ContractEnv.RejectionErrors, ERROR_NAMES_SOURCE],
]);

/** Of the two props that add error names, the one whose added names take more room (the contract's own are not sent), with its value. */
function errorNamesBlame(p: ResolvedPipelineProps): { prop: string; value: unknown } {
  const size = (names: readonly string[]) => Object.values(rejectionErrorsEnvironment(names, [])).join("").length;
  const { permanentErrors, conflictErrors } = p.function;
  return size(permanentErrors) >= size(conflictErrors) ? { prop: "function.permanentErrors", value: permanentErrors } : { prop: "function.conflictErrors", value: conflictErrors };
}

/** The prop that says what a construct variable carries, for the fix of a team variable of that name. */
const OWNED_BY_PROP = new Map<string, string>([
  [ContractEnv.RejectionErrors, "function.permanentErrors or conflictErrors"],
  [ContractEnv.BatchConcurrency, "maxConcurrency"],
  [ContractEnv.IdempotencyLegacyKeyPrefix, "function.legacyIdempotencyKeyPrefix"],
  [ContractEnv.LogLevel, "function.logLevel"],
]);

/**
 * The environment as Lambda measures it: the compact JSON object of every key and value, in UTF-8. A value that is
 * a Terraform reference (another resource's name) is known only at apply and counts as empty here.
 */
function measuredEnvironment(p: ResolvedPipelineProps): { bytes: number; unknown: number; perVariable: Map<string, number> } {
  const variables = functionVariables(p, pipelineResourceNames(p).idempotencyTable);
  let unknown = 0;
  const known = Object.entries(variables).map(([k, v]): [string, string] => {
    if (!Token.isUnresolved(v)) return [k, v];
    unknown += 1;
    return [k, ""];
  });
  const perVariable = new Map(known.map(([k, v]) => [k, lambdaEnvironmentBytes([[k, v]]) - 2]));
  return { bytes: lambdaEnvironmentBytes(known), unknown, perVariable };
}

function environmentSize(p: ResolvedPipelineProps): PropProblem | undefined {
  const measured = measuredEnvironment(p);
  if (measured.bytes <= LAMBDA_ENVIRONMENT_MAX_BYTES) return undefined;
  const byProp = new Map<string, number>();
  for (const [name, size] of measured.perVariable) {
    const prop = SOURCE_OF_VARIABLE.get(name) ?? (Object.prototype.hasOwnProperty.call(p.function.environment, name) ? "function.environment" : "the construct's settings");
    byProp.set(prop, (byProp.get(prop) ?? 0) + size);
  }
  const shares = [...byProp.entries()].sort((a, b) => b[1] - a[1]);
  // Blamed on the prop that takes the most room (the field rules, usually), whose value is shown.
  const largest = shares[0][0];
  const errors = largest === ERROR_NAMES_SOURCE;
  const blame = errors
    ? errorNamesBlame(p)
    : largest === "fieldRules" || largest === "payloadFields"
      ? { prop: largest, value: p[largest] }
      : { prop: "function.environment", value: p.function.environment };
  return {
    ...blame,
    reason:
      `makes the function's environment ${measured.bytes} bytes as Lambda measures it (the JSON of every variable${measured.unknown > 0 ? `; ${measured.unknown} Terraform reference${measured.unknown === 1 ? "" : "s"} counted as empty` : ""}), ` +
      `over Lambda's ${LAMBDA_ENVIRONMENT_MAX_BYTES}: ${shares.map(([prop, size]) => `${prop} ${size}`).join(", ")}`,
    fix: `trim it by ${measured.bytes - LAMBDA_ENVIRONMENT_MAX_BYTES} bytes: ${errors ? "fewer or shorter added error names" : "fewer or shorter payload fields and field rules, or move large settings to SSM Parameter Store"} (${cite(LAMBDA_ENVIRONMENT_SOURCE)})`,
  };
}

function variableNames(p: ResolvedPipelineProps): PropProblem[] {
  // Every contract variable is the construct's, set this time or not: one the props leave unset (the added error
  // names, the batch concurrency, the legacy prefix) would otherwise reach the function from the team's value.
  const owned = new Set<string>([...Object.values(ContractEnv), ...Object.keys(constructVariables(p, ""))]);
  return Object.keys(p.function.environment).flatMap((name): PropProblem[] => {
    const prop = "function.environment";
    if (!LAMBDA_VARIABLE_NAME.test(name)) return [{ prop, value: name, reason: "is not a name Lambda accepts (a letter, then at least one letter, digit or '_')", fix: `rename it, e.g. "${name.replace(/[^A-Za-z0-9_]/g, "_").replace(/^[^A-Za-z]*/, "") || "MY_SETTING"}" (${cite(LAMBDA_VARIABLE_NAME_SOURCE)})` }];
    if (RESERVED.has(name)) return [{ prop, value: name, reason: "is a variable the Lambda runtime defines; Lambda refuses a function that sets it", fix: `remove it or use another name (${cite(LAMBDA_RESERVED_VARIABLES_SOURCE)})` }];
    if (owned.has(name)) return [{ prop, value: name, reason: "is a variable the construct sets itself (the contract the function enforces), or leaves unset on purpose; yours would overwrite or stand in for it", fix: `use another name${OWNED_BY_PROP.has(name) ? `; to change what it says, set ${OWNED_BY_PROP.get(name)}` : ""}` }];
    return [];
  });
}

/** What the function's props must satisfy for Lambda (and the provider) to accept them. */
export const FUNCTION_RULES: readonly PropRule[] = [
  {
    name: "function.runtime",
    check: (p) => {
      const runtime = p.function.runtime;
      if (!RUNTIMES.has(runtime)) {
        return { prop: "function.runtime", value: runtime, reason: "is not a Node.js runtime the construct bundles for", fix: `use ${[...RUNTIMES].join(" or ")} (${RUNTIMES_SOURCE})` };
      }
      const min = RUNTIME_MIN_PROVIDER.get(runtime);
      const version = p.target.providerVersion;
      if (min === undefined || version === undefined || compareVersions(version, min) >= 0) return undefined;
      return {
        prop: "function.runtime",
        value: runtime,
        reason: `needs hashicorp/aws ${min} or later; these provider bindings are for hashicorp/aws ${version}, which refuses it at plan`,
        fix: `use "${LambdaRuntime.Nodejs22}", or build the stack with CDK Terrain (the /cdktn entry with @cdktn/provider-aws 25.x, hashicorp/aws 6.66.0); the offline provider mirror (5.100.0) cannot validate ${runtime}`,
      };
    },
  },
  {
    name: "function.reservedConcurrency",
    check: (p) => {
      const reserved = p.function.reservedConcurrency;
      if (reserved === undefined) return undefined;
      if (reserved === 0) {
        return {
          prop: "function.reservedConcurrency",
          value: reserved,
          reason: "throttles every invocation: each message would be retried until the queue moves it to the DLQ",
          fix: "to pause the pipeline, stop the pipe (desired state STOPPED); to protect the downstream, reserve at least 1",
        };
      }
      if (!Number.isInteger(reserved) || reserved < 1) {
        return { prop: "function.reservedConcurrency", value: reserved, reason: "must be a whole number of at least 1", fix: `reserve 1 or more, or leave it out to use the account's pool (${cite(CONCURRENCY_SOURCE)})` };
      }
      return undefined;
    },
  },
  {
    name: "function.logLevel",
    check: (p) =>
      FUNCTION_LOG_LEVELS.has(p.function.logLevel)
        ? undefined
        : { prop: "function.logLevel", value: p.function.logLevel, reason: "is not a level both Lambda's log configuration and Powertools accept", fix: `use one of ${[...FUNCTION_LOG_LEVELS].join(", ")}` },
  },
  { name: "function.environment.names", check: variableNames },
  {
    // Needs the names (the idempotency table's is one of the values) and the contract's variables.
    name: "function.environment.size",
    after: ["resourceNames", "function.environment.names", "fieldNames", "fieldRules"],
    check: environmentSize,
  },
];

/**
 * What depends on the account and cannot be known at synth: said as a warning, with the figure assumed, and checked
 * against the real account by the preflight.
 */
export function accountDependentWarnings(p: ResolvedPipelineProps): string[] {
  const reserved = p.function.reservedConcurrency;
  const most = ASSUMED_ACCOUNT_CONCURRENCY - UNRESERVED_CONCURRENCY_MIN;
  if (reserved === undefined || reserved <= most) return [];
  return [
    `function.reservedConcurrency = ${reserved} needs an account concurrency quota of at least ${reserved + UNRESERVED_CONCURRENCY_MIN} ` +
      `(Lambda keeps ${UNRESERVED_CONCURRENCY_MIN} unreserved); the default quota is ${ASSUMED_ACCOUNT_CONCURRENCY}, so at most ${most} with it. ` +
      `Check the account's quota before deploying (${cite(CONCURRENCY_SOURCE)}).`,
  ];
}
