/** Local SQS: fauxqs in a worker thread, a client factory, and Terraform → CreateQueue attribute mapping. */
export { startSqs } from "./start-sqs";
export type { LocalSqs } from "./start-sqs";
export { createSqsClient } from "./client";
export { createQueueAttributesFromTerraform } from "./queue-attributes";
export type { TerraformSqsQueue } from "./queue-attributes";
