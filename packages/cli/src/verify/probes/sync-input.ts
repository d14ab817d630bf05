/**
 * StartSyncExecution's input limit: 262,144 bytes of UTF-8 by AWS's API model, where the pipe cuts a batch at
 * 262,144 characters. Four inputs around the limit, each a JSON string (the pipeline's Map refuses a non-array
 * input, so an accepted one runs a short failed execution; what counts is whether the call was accepted).
 */
import { StartSyncExecutionCommand } from "@aws-sdk/client-sfn";
import { OutputName } from "@effectively-once/contract";
import type { Fact, Probe } from "../types";

const LIMIT = 262_144;

/** [name, input text]; each name says its characters and bytes. */
export function limitInputs(): [string, string][] {
  const cases: [string, string][] = [
    ["a".repeat(LIMIT - 2), "ASCII"],
    ["a".repeat(LIMIT - 1), "ASCII"],
    [`é${"b".repeat(LIMIT - 3)}`, "one 2-byte character"],
    [`é${"b".repeat(LIMIT - 4)}`, "one 2-byte character"],
  ].map(([text, what]) => {
    const input = JSON.stringify(text);
    return [`${input.length.toLocaleString("en-US")} characters, ${Buffer.byteLength(input).toLocaleString("en-US")} bytes (${what})`, input];
  });
  return cases;
}

export const syncInputProbe: Probe = {
  id: "sync-input-limit",
  title: "StartSyncExecution's input limit: bytes or characters",
  protects: "a batch of valid messages always fits what Step Functions accepts, in any script (text counted in bytes)",
  needsStack: true,
  calls: (stack) => [{ service: "Step Functions", action: "StartSyncExecution", count: 4, resource: stack.names.stateMachine, why: "inputs of 262,143 to 262,145 characters or bytes; an accepted one fails at once in the Map" }],
  async run(context) {
    const facts: Fact[] = [];
    for (const [name, input] of limitInputs()) {
      try {
        await context.clients.sfn.send(new StartSyncExecutionCommand({ stateMachineArn: String(context.outputs[OutputName.StateMachineArn]), input }));
        facts.push([name, "accepted"]);
      } catch (error) {
        facts.push([name, `refused: ${(error as Error).name}`]);
      }
    }
    return { facts };
  },
};
