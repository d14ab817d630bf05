/** Answers a mocked Task: the invocation's Return (a copy) or Throw, counted per state name per execution. */
import { StatesError } from "../errors";
import type { MockedResponse } from "./config";

/**
 * Invocation numbers count every call of the state in the execution, retries and Map iterations included
 * (a retried state's second attempt is invocation 1). Past the last configured invocation the last answer
 * repeats.
 */
export function answerMock(response: MockedResponse, counts: Map<string, number>, stateName: string): unknown {
  const n = counts.get(stateName) ?? 0;
  counts.set(stateName, n + 1);
  const answer = response.answers[Math.min(n, response.answers.length - 1)];
  if (answer.kind === "throw") throw new StatesError(answer.error, answer.cause);
  return structuredClone(answer.value);
}
