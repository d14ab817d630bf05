import { removeStateFile, writeStateFile, DEFAULT_STATE_FILE, type LocalCloud } from "../cloud";
import { OutputName } from "@effectively-once/contract";

/**
 * Keeps the cloud running for outside producers, prints one line per record outcome, stops cleanly when
 * `interrupted` resolves (Ctrl-C: see interrupts.ts).
 */
export async function serve(cloud: LocalCloud, options: { stackFile: string; stateFile?: string; interrupted: Promise<unknown> }): Promise<number> {
  const stateFile = options.stateFile ?? DEFAULT_STATE_FILE;
  // Last resort if the process ends another way (an uncaught error): a stale state file would name a dead cloud.
  const removeOnExit = () => removeStateFile(stateFile);
  process.once("exit", removeOnExit);
  const path = writeStateFile(
    { version: 1, pid: process.pid, startedAt: new Date().toISOString(), stackFile: options.stackFile, region: cloud.region, endpoints: cloud.endpoints, outputs: cloud.outputs },
    stateFile,
  );
  const queueUrl = cloud.outputs[OutputName.QueueUrl] as string;
  console.log(`
Serving. Publish with any SQS client (JSON or query protocol: AWS SDK v3, boto3, AWS CLI v1 and v2), always
with an explicit endpoint; the queue URL as printed or on 127.0.0.1 (fake credentials are fine):

  region        ${cloud.region}
  SQS           ${cloud.endpoints.sqs}
  DynamoDB      ${cloud.endpoints.dynamodb}
  TestState     ${cloud.endpoints.stepfunctions} (Step Functions; clients switch off the sync- host prefix)
  queue URL     ${queueUrl}
  DLQ URL       ${cloud.outputs[OutputName.DlqUrl]}
  tables        ledger ${cloud.outputs[OutputName.LedgerTable]}, idempotency ${cloud.outputs[OutputName.IdempotencyTable]}, effects ${cloud.outputs[OutputName.EffectsTable]}
  state file    ${path}

  AWS_ACCESS_KEY_ID=local AWS_SECRET_ACCESS_KEY=local aws --region ${cloud.region} --endpoint-url ${cloud.endpoints.sqs} \\
    sqs send-message --queue-url ${queueUrl} \\
    --message-body '{"tenantId":"acme","orderId":"o-1","amount":1250,"currency":"EUR"}'

Ctrl-C stops.
`);
  cloud.subscribe((event) => {
    if (event.type !== "record-outcome") return;
    const time = new Date(event.at).toISOString().slice(11, 19);
    console.log(`${time}  ${event.outcome.padEnd(11)}  ${event.messageId}${event.reason ? `  ${event.reason}` : ""}${event.detail && event.outcome !== "processed" ? `  (${event.detail})` : ""}`);
  });
  await options.interrupted;
  console.log("\nstopping…");
  await cloud.stop();
  removeStateFile(stateFile);
  process.off("exit", removeOnExit);
  console.log("stopped.");
  return 0;
}
