/** The operator tools' context in the simulation: the simulated queues and tables, the stack's outputs, virtual time. */
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { OpsContext } from "@effectively-once/ops";
import { functionSecondLayerEnvironment, type ResolvedPipelineProps } from "@effectively-once/pipeline/settings";
import { secondLayerOutputs } from "@effectively-once/contract";
import { OutputName } from "@effectively-once/contract";
import type { SimDynamo } from "../world/dynamo";
import { SIM_NAMES, simQueues } from "../settings";
import type { SimSqs } from "../sqs/service";
import type { VirtualClock } from "../clock/virtual-clock";

/** Outputs are a fresh, writable object: a deploy that renames the function changes `function_name` (world/world.ts). */
export function simOpsContext({ sqs, dynamo, props: p, clock, functionConfiguration }: { sqs: SimSqs; dynamo: SimDynamo; props: ResolvedPipelineProps; clock: VirtualClock; functionConfiguration: OpsContext["functionConfiguration"] }): OpsContext {
  let opsDynamo: DynamoDBDocumentClient | undefined;
  return {
    sqs: sqs.clientAs(SIM_NAMES.senders.operator),
    // Built on first use: most runs have no operator action that reads the tables.
    get dynamodb() {
      return (opsDynamo ??= DynamoDBDocumentClient.from(dynamo.sdkClient("ops"), { marshallOptions: { removeUndefinedValues: true } }));
    },
    outputs: {
      [OutputName.QueueUrl]: simQueues(p.fifo).queueUrl,
      [OutputName.DlqUrl]: simQueues(p.fifo).dlqUrl,
      [OutputName.LedgerTable]: SIM_NAMES.ledger,
      [OutputName.IdempotencyTable]: SIM_NAMES.idempotency,
      [OutputName.EffectsTable]: SIM_NAMES.effects,
      [OutputName.FunctionName]: SIM_NAMES.functionName,
      [OutputName.Operation]: p.operation,
      [OutputName.BusinessKeyExpression]: p.businessKey.expression,
      [OutputName.FilterPatterns]: JSON.stringify(p.filterPatterns), // the redrive refuses a copy the filter would drop
      [OutputName.Region]: SIM_NAMES.region,
      [OutputName.RetentionSeconds]: p.retentionSeconds,
      [OutputName.MessageRetentionSeconds]: p.messageRetentionSeconds,
      [OutputName.DeadLetterRetentionSeconds]: p.deadLetterRetentionSeconds,
      // The quarantine's copies report the state machine role's session as SenderId: the tools trust only those.
      [OutputName.WorkflowRoleId]: SIM_NAMES.senders.stateMachine.split(":")[0],
      // Where ops finds a key's second-layer record: the construct's own outputs of the function's variables.
      ...secondLayerOutputs(functionSecondLayerEnvironment(p)),
    },
    targetLabel: "simulation",
    now: () => clock.now(),
    // What the deployed function's configuration says (function/deploys.ts), as ops reads it on AWS.
    functionConfiguration,
  };
}
