/**
 * Checks a TestState request against the constraints of AWS's API model (TestStateInput: required members, lengths,
 * enums, minimums), reporting every violation at once in AWS's wording ("1 validation error detected: Value null at
 * 'definition' failed to satisfy constraint: Member must not be null"). Unknown members are ignored, as AWS does.
 * The members' meaning is checked later (definition.ts, mock.ts, context.ts).
 */
import { SerializationException, ValidationException } from "./errors";
import { FieldValidationMode, InspectionLevel, type TestStateInput } from "./types";

/** One member of an API model's input shape: its JSON type and constraints. */
export type Member =
  | { readonly kind: "string"; readonly min?: number; readonly max?: number; readonly bytes?: boolean; readonly sensitive?: boolean; readonly values?: readonly string[] }
  | { readonly kind: "integer"; readonly min?: number }
  | { readonly kind: "boolean" }
  | { readonly kind: "structure"; readonly members: ReadonlyArray<readonly [string, Member]> };

/** SensitiveData: "Length constraints apply to the payload size, and are expressed as bytes in UTF-8 encoding." */
const DATA: Member = { kind: "string", max: 262144, bytes: true, sensitive: true };
const STATE_NAME: Member = { kind: "string", min: 1, max: 80, sensitive: true };

/** TestStateInput (botocore stepfunctions 2016-11-23). */
const INPUT: ReadonlyArray<readonly [string, Member]> = [
  ["definition", { kind: "string", min: 1, max: 1048576, sensitive: true }],
  ["roleArn", { kind: "string", min: 1, max: 256 }],
  ["input", DATA],
  ["inspectionLevel", { kind: "string", values: Object.values(InspectionLevel) }],
  ["revealSecrets", { kind: "boolean" }],
  ["variables", DATA],
  ["stateName", STATE_NAME],
  [
    "mock",
    {
      kind: "structure",
      members: [
        ["result", DATA],
        ["errorOutput", { kind: "structure", members: [["error", { kind: "string", min: 0, max: 256, sensitive: true }], ["cause", { kind: "string", min: 0, max: 32768, sensitive: true }]] }],
        ["fieldValidationMode", { kind: "string", values: Object.values(FieldValidationMode) }],
      ],
    },
  ],
  ["context", DATA],
  [
    "stateConfiguration",
    {
      kind: "structure",
      members: [
        ["retrierRetryCount", { kind: "integer", min: 0 }],
        ["errorCausedByState", STATE_NAME],
        ["mapIterationFailureCount", { kind: "integer", min: 0 }],
        ["mapItemReaderData", DATA],
      ],
    },
  ],
];
const REQUIRED = ["definition"];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
/** A member the request carries: JSON null, like a missing member, is no value (nor is undefined, in process). */
const given = (o: Record<string, unknown>, name: string) => Object.hasOwn(o, name) && o[name] !== null && o[name] !== undefined;

/** `value` of a member, as AWS quotes it in a violation; sensitive members are not quoted. */
function quoted(value: unknown, member: Member): string {
  if (value === null || value === undefined) return "null";
  if (member.kind === "string" && member.sensitive) return "";
  return typeof value === "string" ? `'${value}'` : String(value);
}

function check(value: unknown, member: Member, path: string, violations: string[]): void {
  const at = (constraint: string) => {
    const v = quoted(value, member);
    violations.push(`Value${v ? ` ${v}` : ""} at '${path}' failed to satisfy constraint: ${constraint}`);
  };
  switch (member.kind) {
    case "string": {
      if (typeof value !== "string") throw new SerializationException(`'${path}' must be a string, got ${JSON.stringify(value)}`);
      const length = member.bytes ? Buffer.byteLength(value, "utf8") : value.length;
      if (member.min !== undefined && length < member.min) at(`Member must have length greater than or equal to ${member.min}`);
      if (member.max !== undefined && length > member.max) at(`Member must have length less than or equal to ${member.max}`);
      if (member.values && !member.values.includes(value)) at(`Member must satisfy enum value set: [${member.values.join(", ")}]`);
      return;
    }
    case "integer":
      if (typeof value !== "number" || !Number.isInteger(value)) throw new SerializationException(`'${path}' must be an integer, got ${JSON.stringify(value)}`);
      if (member.min !== undefined && value < member.min) at(`Member must have value greater than or equal to ${member.min}`);
      return;
    case "boolean":
      if (typeof value !== "boolean") throw new SerializationException(`'${path}' must be a boolean, got ${JSON.stringify(value)}`);
      return;
    case "structure":
      if (!isObject(value)) throw new SerializationException(`'${path}' must be a JSON object, got ${JSON.stringify(value)}`);
      for (const [name, inner] of member.members) {
        if (given(value, name)) check(value[name], inner, `${path}.${name}`, violations);
      }
  }
}

/**
 * The members of `body` that `members` names, checked against their constraints (every violation at once, in AWS's
 * wording), or ValidationException. Used by each action of the local endpoint with its own shape.
 */
export function readMembers(body: unknown, members: ReadonlyArray<readonly [string, Member]>, required: readonly string[]): Record<string, unknown> {
  if (!isObject(body)) throw new SerializationException("The request body must be a JSON object.");
  const violations: string[] = [];
  for (const name of required) if (!given(body, name)) violations.push(`Value null at '${name}' failed to satisfy constraint: Member must not be null`);
  for (const [name, member] of members) {
    if (given(body, name)) check(body[name], member, name, violations);
  }
  if (violations.length > 0) {
    throw new ValidationException(`${violations.length} validation error${violations.length === 1 ? "" : "s"} detected: ${violations.join("; ")}`);
  }
  // Only the members of the model, so that no other key of the body travels further.
  const out: Record<string, unknown> = {};
  for (const [name] of members) if (given(body, name)) out[name] = body[name];
  return out;
}

/** The request as AWS's model allows it, or ValidationException listing every violation. */
export function readRequest(body: unknown): TestStateInput {
  return readMembers(body, INPUT, REQUIRED) as unknown as TestStateInput;
}
