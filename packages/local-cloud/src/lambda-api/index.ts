/** The local Lambda API endpoint (GetFunctionConfiguration): see server.ts. */
export { startLambdaApiEndpoint, type LambdaApiEndpoint, type LambdaApiFunction } from "./server";
