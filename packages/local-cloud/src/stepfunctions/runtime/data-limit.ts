/**
 * Step Functions' payload quota: a state's input and output, a task's result and the variables of one Assign
 * are each at most 256 KiB of UTF-8 JSON (AWS, "Step Functions service quotas"; "Handling errors": reported as
 * States.DataLimitExceeded "when the output of a connector is larger than payload size quota, when the output of
 * a state is larger than payload size quota, when, after Parameters processing, the input of a state is larger").
 *
 * Which of them a Catch can handle follows executions recorded on AWS (LocalStack's AWS-validated snapshots,
 * tests/aws/services/stepfunctions/v2/error_handling/test_states_errors.snapshot.json): a task result over the
 * quota is a TaskFailed that `States.ALL` and `States.DataLimitExceeded` catch (the docs say States.ALL cannot);
 * a state output over the quota fails the execution at once, with no state exit and no Catch.
 */
import { StatesError, StatesErrorName } from "../errors";

const PAYLOAD_LIMIT_BYTES = 262_144;

/**
 * True when the JSON text of `value` is longer than 256 KiB in UTF-8. Every state output is checked, so the
 * common small value is cleared by a cheap upper bound (a walk: 1.1 µs instead of 8.8 µs for JSON.stringify on a
 * 660-character SQS record); only values that might be near the limit are serialized and counted exactly.
 */
export function exceedsPayloadLimit(value: unknown): boolean {
  if (value === undefined) return false;
  if (upperBound(value, PAYLOAD_LIMIT_BYTES) <= PAYLOAD_LIMIT_BYTES) return false;
  const text = JSON.stringify(value);
  if (text === undefined) return false;
  return text.length > PAYLOAD_LIMIT_BYTES || Buffer.byteLength(text, "utf8") > PAYLOAD_LIMIT_BYTES;
}

/**
 * An upper bound of the UTF-8 JSON size of `value` (a string code unit is at most 6 bytes, as `\uXXXX`; a number
 * at most 24 characters), or anything above `budget` as soon as the bound passes it.
 */
function upperBound(value: unknown, budget: number): number {
  if (typeof value === "string") return 2 + 6 * value.length;
  if (typeof value === "number") return 24;
  if (value === null || typeof value === "boolean") return 5;
  if (typeof value !== "object") return 0;
  let size = 2;
  if (Array.isArray(value)) {
    for (const item of value) {
      size += 1 + upperBound(item, budget - size);
      if (size > budget) return size;
    }
    return size;
  }
  for (const key in value as Record<string, unknown>) {
    size += 4 + 6 * key.length + upperBound((value as Record<string, unknown>)[key], budget - size);
    if (size > budget) return size;
  }
  return size;
}

/** A task's result is too large: an ordinary task failure (`label`: the resource type, or the Lambda ARN). */
export function resultTooLarge(label: string): StatesError {
  return new StatesError(
    StatesErrorName.DataLimitExceeded,
    `The state/task '${label}' returned a result with a size exceeding the maximum number of bytes service limit.`,
  );
}

/** A state's output (AWS-recorded wording), input or variables (our wording) too large: terminal. */
export function terminalDataLimit(stateName: string, what: "output" | "input" | "variables"): StatesError {
  const cause =
    what === "output"
      ? `The state/task '${stateName}' returned a result with a size exceeding the maximum number of bytes service limit.`
      : what === "input"
        ? `The state/task '${stateName}' has an input, after Parameters or Arguments, with a size exceeding the maximum number of bytes service limit.`
        : `The variables assigned by the state '${stateName}' have a size exceeding the maximum number of bytes service limit.`;
  return new StatesError(StatesErrorName.DataLimitExceeded, cause, { terminal: true });
}
