/**
 * StartSyncExecution on the local cloud's EXPRESS state machines, with AWS's request checks and answer shape
 * (botocore states 2016-11-23, StartSyncExecutionInput/Output): `input` is at most 262,144 bytes of UTF-8, checked
 * before any execution exists; an execution that fails is an answer with status FAILED, not an error.
 */
import { SYNC_EXECUTION_INPUT_BYTES } from "@effectively-once/contract";
import { readMembers, type Member } from "../stepfunctions/test-state/request";
import { TestStateApiError } from "../stepfunctions/test-state";
import type { ExecutionResult } from "../stepfunctions";

/** The state machines the endpoint can start: by ARN, each with its type; `run` executes one and writes its logs. */
export interface SyncExecutions {
  machine(arn: string): { readonly type: string; run(inputText: string, input: unknown, name?: string): Promise<ExecutionResult> } | undefined;
}

class SyncExecutionError extends TestStateApiError {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = code;
  }
}

const INPUT: ReadonlyArray<readonly [string, Member]> = [
  ["stateMachineArn", { kind: "string", min: 1, max: 256 }],
  ["name", { kind: "string", min: 1, max: 80 }],
  // SensitiveData: "expressed as bytes in UTF-8 encoding"; the pipe's own starts are checked the same (cloud/sync-execution-input.ts).
  ["input", { kind: "string", max: SYNC_EXECUTION_INPUT_BYTES, bytes: true, sensitive: true }],
  ["traceHeader", { kind: "string", min: 0, max: 256 }],
  ["includedData", { kind: "string", values: ["ALL_DATA", "METADATA_ONLY"] }],
];

const seconds = (d: Date) => d.getTime() / 1000;

export async function startSyncExecution(body: unknown, executions: SyncExecutions | undefined): Promise<unknown> {
  const request = readMembers(body, INPUT, ["stateMachineArn"]) as { stateMachineArn: string; name?: string; input?: string; includedData?: string };
  const target = executions?.machine(request.stateMachineArn);
  if (!target) throw new SyncExecutionError("StateMachineDoesNotExist", `State Machine Does Not Exist: '${request.stateMachineArn}'`);
  if (target.type !== "EXPRESS") throw new SyncExecutionError("StateMachineTypeNotSupported", "This operation is not supported by this type of state machine");
  const text = request.input ?? "{}";
  let input: unknown;
  try {
    input = JSON.parse(text);
  } catch (error) {
    throw new SyncExecutionError("InvalidExecutionInput", `Invalid State Machine Execution Input: '${(error as Error).message}'`);
  }
  const run = await target.run(text, input, request.name);
  const data = request.includedData !== "METADATA_ONLY";
  return {
    executionArn: run.executionArn,
    stateMachineArn: request.stateMachineArn,
    name: run.name,
    startDate: seconds(run.startDate),
    stopDate: seconds(run.stopDate),
    status: run.status,
    ...(run.error !== undefined ? { error: run.error } : {}),
    ...(run.cause !== undefined ? { cause: run.cause } : {}),
    ...(data ? { input: text, inputDetails: { included: true } } : {}),
    ...(data && run.status === "SUCCEEDED" ? { output: JSON.stringify(run.output ?? null), outputDetails: { included: true } } : {}),
    billingDetails: { billedMemoryUsedInMB: 64, billedDurationInMilliseconds: Math.max(100, Math.ceil((run.stopDate.getTime() - run.startDate.getTime()) / 100) * 100) },
  };
}
