/** Calling TestState in process, with its JSON-text members parsed for comparison. */
import { testState, TestStateApiError, type TestStateInput, type TestStateOutput } from "../../../src/stepfunctions/test-state";

export type Parsed = Omit<TestStateOutput, "output" | "inspectionData"> & { output?: unknown; inspectionData?: Record<string, unknown> };

const parse = (text: string) => JSON.parse(text) as unknown;

/** The answer with `output` and every JSON-text member of `inspectionData` parsed. */
export function parsed(answer: TestStateOutput): Parsed {
  const { output, inspectionData, ...rest } = answer;
  const out: Parsed = { ...rest };
  if (output !== undefined) out.output = parse(output);
  if (inspectionData) {
    out.inspectionData = Object.fromEntries(Object.entries(inspectionData).map(([k, v]) => [k, typeof v === "string" ? parse(v) : v]));
  }
  return out;
}

/** Runs a request; `state` is JSON-encoded into `definition` when given as an object. */
export async function run(request: Omit<TestStateInput, "definition"> & { definition: string | object }): Promise<Parsed> {
  const definition = typeof request.definition === "string" ? request.definition : JSON.stringify(request.definition);
  return parsed(await testState({ ...request, definition }));
}

/** The error a request is answered with, as the wire carries it. */
export async function rejection(request: Omit<TestStateInput, "definition"> & { definition: string | object }): Promise<{ code: string; message: string }> {
  try {
    await run(request);
  } catch (e) {
    if (e instanceof TestStateApiError) return { code: e.code, message: e.message };
    throw e;
  }
  throw new Error("the request was answered, not refused");
}

/** The shape of a context object TestState makes (ids and times vary): AWS's recorded members and order. */
export const GENERATED_CONTEXT = (input: unknown, retryCount?: number, roleArn: string | null = null) => ({
  Execution: { Id: expect.stringMatching(/^arn:aws:states:us-east-1:000000000000:express:[^:]+:[^:]+$/), Input: input, Name: expect.any(String), RoleArn: roleArn, StartTime: expect.any(String) },
  StateMachine: { Id: expect.stringMatching(/^arn:aws:states:us-east-1:000000000000:stateMachine:/), Name: expect.any(String) },
  State: { Name: "StateName", EnteredTime: expect.any(String), ...(retryCount === undefined ? {} : { RetryCount: retryCount }) },
});

export const HELLO_WORLD = JSON.stringify({ Value: "HelloWorld" });
export const LEVELS = ["INFO", "DEBUG", "TRACE"] as const;
