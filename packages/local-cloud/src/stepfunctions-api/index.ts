/**
 * The local Step Functions endpoint (AWS's JSON protocol): TestState, a unit-test endpoint for state machines that
 * needs no account, and StartSyncExecution on the local cloud's EXPRESS machines. The local cloud starts one (`endpoints.stepfunctions`); it also runs alone:
 *
 * ```ts
 * const sfn = await startStepFunctionsEndpoint();            // http://127.0.0.1:<free port>
 * const client = new SFNClient({ endpoint: sfn.endpoint, region: "us-east-1", disableHostPrefix: true, credentials });
 * const answer = await client.send(new TestStateCommand({ definition, input, inspectionLevel: "DEBUG" }));
 * await sfn.stop();
 * ```
 */
export { startStepFunctionsEndpoint, type StepFunctionsEndpoint, type StepFunctionsEndpointOptions } from "./server";
