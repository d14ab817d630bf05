/**
 * The interpreter's definition problems in AWS's InvalidDefinition form: "Invalid State Machine Definition:
 * 'SCHEMA_VALIDATION_FAILED: <what> at <where>'". Wording recorded on AWS is used where it was recorded (LocalStack's
 * AWS-validated snapshots, tests/aws/services/stepfunctions/v2/test_state/); elsewhere the interpreter's own sentence
 * is moved into AWS's frame.
 */
import { InvalidDefinition } from "./errors";

const RECORDED: ReadonlyArray<readonly [RegExp, (path: string) => string]> = [
  // test_test_state_machine_scenarios › test_state_name_invalid_state_definition (2025-12-04)
  [/^(\/\S*)\/Type must be one of /, (at) => `The field 'Type' should have one of these values: [Task, Wait, Pass, Succeed, Fail, Choice, Parallel, Map] at ${at}/Type`],
  // test_state_mock_validation › test_parallel_state_empty_branches (2026-02-24)
  [/^(\/\S*)\/Branches must be a non-empty array/, (at) => `Value cannot be empty at ${at}/Branches`],
];

/** One problem (`/States/X/Field must ...` or `/States/X: ...`) as AWS words and places it. */
function schemaProblem(problem: string): string {
  for (const [pattern, words] of RECORDED) {
    const m = pattern.exec(problem);
    if (m) return `SCHEMA_VALIDATION_FAILED: ${words(m[1])}`;
  }
  const located = /^(\/[^\s:]*):?\s+(.*)$/s.exec(problem);
  if (located) return `SCHEMA_VALIDATION_FAILED: ${located[2]} at ${located[1] || "/"}`;
  return `SCHEMA_VALIDATION_FAILED: ${problem}`;
}

export function invalidDefinition(problems: readonly string[]): InvalidDefinition {
  return new InvalidDefinition(`Invalid State Machine Definition: '${problems.map(schemaProblem).join(", ")}'`);
}

/** The definition is not JSON at all (AWS: INVALID_JSON_DESCRIPTION). */
export function invalidJson(reason: string): InvalidDefinition {
  return new InvalidDefinition(`Invalid State Machine Definition: 'INVALID_JSON_DESCRIPTION: ${reason}'`);
}
