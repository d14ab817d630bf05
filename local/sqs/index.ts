/** Local SQS: fauxqs in a worker thread, a client factory, and Terraform → CreateQueue attribute mapping. */
export { startSqs } from "./start-sqs";
export type { LocalSqs } from "./start-sqs";
export { createSqsClient, LOCAL_CREDENTIALS, LOCAL_REGION } from "./client";
export { createQueueAttributesFromTerraform } from "./queue-attributes";
export type { TerraformSqsQueue } from "./queue-attributes";
export { startWorkerServer } from "./worker-server";
export type { WorkerServer } from "./worker-server";
export { InvalidQueueConfigError, LocalSqsError, SqsEmulatorStartError } from "./errors";
