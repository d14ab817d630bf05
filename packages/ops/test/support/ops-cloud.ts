import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LambdaClient } from "@aws-sdk/client-lambda";
import { SFNClient } from "@aws-sdk/client-sfn";
import { SendMessageCommand, type MessageAttributeValue } from "@aws-sdk/client-sqs";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { startLocalCloud, type LocalCloud, type OutcomeEvent } from "@effectively-once/local-cloud";
import { LOCAL_CREDENTIALS, writeStateFile } from "@effectively-once/contract";
import type { FaultPlanSpec } from "@effectively-once/local-cloud/emulators";
import { lambdaFunctionConfiguration, type OpsContext } from "../../src";
import { LOAD_WINDOWS } from "@effectively-once/local-cloud/stack";
import { waitFor } from "@effectively-once/testing";
import { synthStack } from "@effectively-once/testing/stack";
import { createSqsClient } from "@effectively-once/local-cloud/emulators";

/** Test-sized windows (the load tools' own): a lease lasts 5 s. */
const OVERRIDES = LOAD_WINDOWS;

export interface OpsCloud {
  readonly cloud: LocalCloud;
  /** A command context on the cloud's own clients. */
  readonly ctx: OpsContext;
  /** A state file naming this process as the cloud's owner, as `npm start -- --serve` writes it. */
  readonly stateFile: string;
  readonly functionName: string;
  /** Sends to the source queue; resolves with the messageId. */
  send(body: unknown): Promise<string>;
  /** Sends straight to the DLQ, as the queue's redrive does: body and producer attributes, no reason. */
  sendToDlq(body: unknown, attributes?: Record<string, MessageAttributeValue>): Promise<string>;
  /** Sends to the DLQ as the workflow role does (its SenderId): what the state machine's quarantine writes. */
  quarantine(body: unknown, attributes?: Record<string, MessageAttributeValue>): Promise<string>;
  /** The first final outcome (not "retry") of a message, waiting for it. */
  outcome(messageId: string, timeoutMs?: number): Promise<OutcomeEvent>;
  stop(): Promise<void>;
}

/**
 * Boots the payments stack (prefix `ops`) on the local cloud. The stack comes from the run's shared synths
 * (@effectively-once/testing/stack): suites that ask for the same prefix share one synth per run, read-only, so a
 * suite that rewrites the stack works on its own copy.
 */
export async function startOpsCloud(
  options: {
    faults?: FaultPlanSpec;
    /** Names the stack's resources; keep the default unless the names matter: each other prefix is one more synth. */
    namePrefix?: string;
    /** Rewrites the deployed function's variables in the synthesized stack (e.g. as an earlier release deployed them); the outputs stay. */
    functionVariables?: (variables: Record<string, string>) => Record<string, string>;
  } = {},
): Promise<OpsCloud> {
  const dir = mkdtempSync(join(tmpdir(), "ops-cloud-"));
  const namePrefix = options.namePrefix ?? "ops";
  const synthesized = synthStack(OVERRIDES, { stackName: "ops-test", region: "us-east-1", namePrefix });
  let stackFile = join(synthesized.stackDir, "cdk.tf.json");
  let cloud: LocalCloud;
  try {
    if (options.functionVariables) {
      // The shared synth stays as synthesized: the rewrite goes to a copy of the stack's folder (its assets with it).
      const copy = join(dir, "stack");
      cpSync(synthesized.stackDir, copy, { recursive: true });
      stackFile = join(copy, "cdk.tf.json");
      rewriteFunctionVariables(stackFile, options.functionVariables);
    }
    cloud = await startLocalCloud({ stackFile, retryVisibilityTimeoutSeconds: 1, faults: options.faults, ttlSweepIntervalMs: 0 });
  } catch (error) {
    synthesized.cleanup();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const outcomes = new Map<string, OutcomeEvent>();
  cloud.subscribe((event) => {
    if (event.type === "record-outcome" && event.outcome !== "retry" && !outcomes.has(event.messageId)) outcomes.set(event.messageId, event);
  });
  const stateFile = writeStateFile(
    { version: 1, pid: process.pid, startedAt: new Date().toISOString(), stackFile, region: cloud.region, endpoints: cloud.endpoints, outputs: cloud.outputs },
    join(dir, "state.json"),
  );
  const lambda = new LambdaClient({ endpoint: cloud.endpoints.lambda, region: cloud.region, credentials: LOCAL_CREDENTIALS });
  const sfn = new SFNClient({ region: cloud.region, endpoint: cloud.endpoints.stepfunctions, disableHostPrefix: true, credentials: LOCAL_CREDENTIALS });
  const ctx: OpsContext = {
    sqs: cloud.clients.sqs,
    dynamodb: DynamoDBDocumentClient.from(cloud.clients.dynamodb),
    sfn,
    outputs: cloud.outputs,
    targetLabel: "the test cloud",
    endpoints: cloud.endpoints,
    now: Date.now,
    // The function's configuration from the local Lambda endpoint, as the CLI reads it on AWS.
    functionConfiguration: lambdaFunctionConfiguration(lambda),
  };
  const asWorkflow = createSqsClient(cloud.endpoints.sqs, { credentials: { accessKeyId: `${cloud.outputs.workflow_role_id}:test`, secretAccessKey: "local" } });
  const sendTo = async (queueUrl: string, body: unknown, attributes?: Record<string, MessageAttributeValue>, client = cloud.clients.sqs) => {
    const { MessageId } = await client.send(
      new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: typeof body === "string" ? body : JSON.stringify(body), MessageAttributes: attributes }),
    );
    return MessageId!;
  };
  return {
    cloud,
    ctx,
    stateFile,
    functionName: `${namePrefix}-charge`,
    send: (body) => sendTo(cloud.outputs.queue_url as string, body),
    sendToDlq: (body, attributes) => sendTo(cloud.outputs.dlq_url as string, body, attributes),
    quarantine: (body, attributes) => sendTo(cloud.outputs.dlq_url as string, body, attributes, asWorkflow),
    outcome: (messageId, timeoutMs = 10_000) => waitFor(() => outcomes.get(messageId), { timeoutMs, message: `a final outcome for ${messageId}` }),
    stop: async () => {
      asWorkflow.destroy();
      lambda.destroy();
      sfn.destroy();
      await cloud.stop();
      synthesized.cleanup();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A payments message body. */
export function payment(orderId: string, amount = 100, currency = "EUR"): Record<string, unknown> {
  return { tenantId: "t1", orderId, amount, currency };
}

/** Captures what the CLI writes, for `runCli` in-process. */
export function captureIo(overrides: { stdinIsTty?: boolean; answer?: string } = {}) {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    io: {
      stdout: (text: string) => out.push(text),
      stderr: (text: string) => err.push(text),
      stdinIsTty: overrides.stdinIsTty ?? false,
      prompt: async () => overrides.answer ?? "",
    },
  };
}

/** Rewrites every function's `environment.variables` in a synthesized `cdk.tf.json`, in place. */
function rewriteFunctionVariables(stackFile: string, rewrite: (variables: Record<string, string>) => Record<string, string>): void {
  const stack = JSON.parse(readFileSync(stackFile, "utf8")) as { resource?: { aws_lambda_function?: Record<string, { environment?: { variables?: Record<string, string> } }> } };
  for (const fn of Object.values(stack.resource?.aws_lambda_function ?? {})) {
    fn.environment = { ...fn.environment, variables: rewrite({ ...fn.environment?.variables }) };
  }
  writeFileSync(stackFile, JSON.stringify(stack, null, 2));
}
