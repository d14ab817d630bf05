/** One TestState call as the probes make it, its answer reduced to a fact value. */
import { TestStateCommand } from "@aws-sdk/client-sfn";
import type { ProbeContext } from "../types";

/** The state's output (JSON text) on SUCCEEDED; else `status: error` (the cause is the engine's own prose, not compared), or the API's refusal by its name. */
export async function testState(context: ProbeContext, request: { definition: string; stateName?: string; input?: string }): Promise<{ output?: unknown; text: string }> {
  try {
    const answer = await context.clients.sfn.send(new TestStateCommand({ ...request, inspectionLevel: "INFO" }));
    if (answer.status === "SUCCEEDED") return { output: JSON.parse(answer.output ?? "null"), text: answer.output ?? "null" };
    return { text: `${answer.status}: ${answer.error ?? ""}` };
  } catch (error) {
    return { text: `refused: ${(error as Error).name}` };
  }
}
