/** A lean AWS JSON-protocol client (DynamoDB, SQS) with the SDK's `send(command)` shape, for the local cloud's hot paths. */
export { JsonProtocolClient } from "./client";
export type { JsonCommand, JsonProtocolClientOptions } from "./client";
export { JsonProtocolError, ServiceError, UnsupportedCommandError } from "./errors";
export { signRequest } from "./sigv4";
export type { SignInput, SigningCredentials } from "./sigv4";
