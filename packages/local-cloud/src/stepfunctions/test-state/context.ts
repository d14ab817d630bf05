/**
 * TestState's `context`: a context object given with a mock replaces the one Step Functions would make, member for
 * member (empty objects stay empty). Its members and types are checked with the messages recorded on AWS
 * (LocalStack's AWS-validated snapshot test_state_context_object, 2025-12-03): "Invalid Context object provided:
 * Field 'Pokedex' is not allowed", "... Execution.Id must be a string", "... 'Map' field is not supported when
 * mocking a Context object", and `Task` only for `.sync` and `.waitForTaskToken` Task states.
 */
import type { StateUnderTest } from "./definition";
import { ValidationException } from "./errors";

type Kind = "string" | "integer" | "any";
/** The members a context object may have, and their types. */
const SECTIONS = new Map<string, ReadonlyMap<string, Kind>>([
  ["Execution", new Map<string, Kind>([["Id", "string"], ["Input", "any"], ["Name", "string"], ["RoleArn", "string"], ["StartTime", "string"], ["RedriveCount", "integer"]])],
  ["State", new Map<string, Kind>([["EnteredTime", "string"], ["Name", "string"], ["RetryCount", "integer"]])],
  ["StateMachine", new Map<string, Kind>([["Id", "string"], ["Name", "string"]])],
  ["Task", new Map<string, Kind>([["Token", "string"]])],
]);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function invalid(reason: string): never {
  throw new ValidationException(`Invalid Context object provided: ${reason}`);
}

/** The context object to run with, or undefined when the request gives none (Step Functions makes one). */
export function givenContext(text: string | undefined, mocked: boolean, subject: StateUnderTest): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  if (!mocked) throw new ValidationException("TestState supports a Context object only when a mock is specified.");
  let context: unknown;
  try {
    context = JSON.parse(text);
  } catch (e) {
    invalid(`the context is not valid JSON: ${(e as Error).message}`);
  }
  if (!isObject(context)) invalid("the context must be a JSON object");
  for (const [section, value] of Object.entries(context)) {
    if (section === "Map") invalid("'Map' field is not supported when mocking a Context object");
    const members = SECTIONS.get(section);
    if (!members) invalid(`Field '${section}' is not allowed`);
    if (!isObject(value)) invalid(`${section} must be an object`);
    for (const [name, v] of Object.entries(value)) {
      const kind = members.get(name);
      if (!kind) invalid(`Field '${name}' is not allowed`);
      if (kind === "string" && typeof v !== "string") invalid(`${section}.${name} must be a string`);
      if (kind === "integer" && !Number.isInteger(v)) invalid(`${section}.${name} must be an integer`);
    }
  }
  const callback = subject.type === "Task" && /\.(sync(:2)?|waitForTaskToken)$/.test(String(subject.raw.Resource));
  if (Object.hasOwn(context, "Task") && !callback) {
    invalid("Context object contains 'Task' when state is not a Task state with a '.sync' or '.waitForTaskToken' service integration pattern");
  }
  return context;
}
