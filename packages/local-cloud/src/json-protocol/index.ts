/** A lean AWS JSON-protocol client (DynamoDB, SQS) with the SDK's `send(command)` shape, for the local cloud's hot paths. */
export { JsonProtocolClient } from "./client";
export { ServiceError } from "./errors";
