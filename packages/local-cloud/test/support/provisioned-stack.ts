import { join } from "node:path";
import type { SQSClient } from "@aws-sdk/client-sqs";
import { startDynalite, type Dynalite, type SynthesizedStack } from "@effectively-once/testing";
import { loadStackFile, provisionStack, type ProvisionedStack } from "../../src/provision";
import { createSqsClient, startSqs, type LocalSqs } from "../../src/sqs";

/** A synthesized stack provisioned on a fresh local SQS and dynalite. */
export interface ProvisionedStackFixture {
  readonly stack: SynthesizedStack;
  readonly sqs: SQSClient;
  readonly dynamo: Dynalite;
  readonly provisioned: ProvisionedStack;
}

/**
 * Registers the suite's beforeAll/afterAll: the stack `synth` makes, provisioned on a fresh local SQS and dynalite,
 * all torn down after the suite. Read the fields inside tests, not at collection.
 */
export function provisionedStack(synth: () => SynthesizedStack): ProvisionedStackFixture {
  const fixture = {} as { stack: SynthesizedStack; sqsServer: LocalSqs; sqs: SQSClient; dynamo: Dynalite; provisioned: ProvisionedStack };
  beforeAll(async () => {
    fixture.stack = synth();
    [fixture.sqsServer, fixture.dynamo] = await Promise.all([startSqs(), startDynalite()]);
    fixture.sqs = createSqsClient(fixture.sqsServer.endpoint);
    fixture.provisioned = await provisionStack(loadStackFile(join(fixture.stack.stackDir, "cdk.tf.json")), { sqs: fixture.sqs, dynamodb: fixture.dynamo.client });
  });
  afterAll(async () => {
    fixture.sqs?.destroy();
    await Promise.all([fixture.sqsServer?.stop(), fixture.dynamo?.stop()]);
    fixture.stack?.cleanup();
  });
  return fixture;
}
