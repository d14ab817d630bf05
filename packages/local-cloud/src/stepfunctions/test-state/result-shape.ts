/**
 * `mock.fieldValidationMode`: a mocked Task result checked against the output shape of the API it stands for, from
 * AWS's models (service-shapes.json, vendored from botocore by packages/cli/src/stepfunctions/service-shapes.ts).
 * STRICT: required members present and present members of the right type; PRESENT: only the latter; NONE: nothing.
 * Members are named as Step Functions names them (first letter upper case: `executionArn` → `ExecutionArn`); members
 * the model does not know are accepted. Rules and messages as recorded on AWS (LocalStack's AWS-validated snapshots
 * test_field_validation_mode*.snapshot.json, 2025-12-03), e.g. "Mock result schema validation error: Field
 * 'StatusCode' must be a number". Resources whose API is not vendored, `.sync` and `.waitForTaskToken` results are
 * not checked.
 */
import SHAPES from "./service-shapes.json";
import { ValidationException } from "./errors";
import { FieldValidationMode } from "./types";

interface Shape {
  readonly type: string;
  readonly members?: Readonly<Record<string, string>>;
  readonly member?: string;
  readonly value?: string;
  readonly required?: readonly string[];
  readonly enum?: readonly string[];
  readonly min?: number;
  readonly max?: number;
}
interface ServiceModel {
  readonly outputs: Readonly<Record<string, string>>;
  readonly shapes: Readonly<Record<string, Shape>>;
}
const SERVICES = new Map<string, ServiceModel>(Object.entries(SHAPES.services as Record<string, ServiceModel>));

/** `aws-sdk:<service>` names that differ from botocore's folder names. */
const SDK_SERVICES = new Map([
  ["sfn", "stepfunctions"],
  ["eventbridge", "events"],
]);

/** The API a Task resource calls, as botocore names it, or undefined when its result is not that API's output. */
export function operationOf(resource: string): { service: string; operation: string } | undefined {
  const m = /^arn:aws[a-z-]*:states:::(.+)$/.exec(resource);
  if (!m || /\.(sync(:2)?|waitForTaskToken)$/.test(m[1])) return undefined;
  const parts = m[1].split(":");
  const [service, action] = parts[0] === "aws-sdk" ? [SDK_SERVICES.get(parts[1]) ?? parts[1], parts[2]] : [parts[0] === "states" ? "stepfunctions" : parts[0], parts[1]];
  if (!service || !action) return undefined;
  return { service, operation: action.charAt(0).toUpperCase() + action.slice(1) };
}

const sfnCased = (member: string) => member.charAt(0).toUpperCase() + member.slice(1);

function fail(message: string): never {
  throw new ValidationException(`Mock result schema validation error: ${message}`);
}

function checkValue(value: unknown, shapeName: string, model: ServiceModel, field: string, strict: boolean): void {
  const shape = model.shapes[shapeName];
  const isObject = typeof value === "object" && value !== null && !Array.isArray(value);
  switch (shape.type) {
    case "structure": {
      if (!isObject) fail(field ? `Field '${field}' must be an object` : "Mock result must be a JSON object");
      const members = new Map(Object.entries(shape.members ?? {}).map(([name, inner]) => [sfnCased(name), inner]));
      if (strict) for (const name of shape.required ?? []) if (!Object.hasOwn(value as object, sfnCased(name))) fail(`Required field '${sfnCased(name)}' is missing`);
      for (const [name, inner] of Object.entries(value as object)) {
        const member = members.get(name);
        if (member !== undefined) checkValue(inner, member, model, name, strict);
      }
      return;
    }
    case "list":
      if (!Array.isArray(value)) fail(`Field '${field}' must be an array`);
      for (const item of value) checkValue(item, shape.member as string, model, field, strict);
      return;
    case "map":
      if (!isObject) fail(`Field '${field}' must be an object`);
      for (const inner of Object.values(value as object)) checkValue(inner, shape.value as string, model, field, strict);
      return;
    case "string":
    case "timestamp":
    case "blob":
      if (typeof value !== "string") fail(`Field '${field}' must be a string`);
      if (shape.enum && !shape.enum.includes(value)) fail(`Field '${field}' is not an expected value`);
      if (shape.min !== undefined && value.length < shape.min) fail(`Field '${field}' is smaller than the minimum length`);
      if (shape.max !== undefined && value.length > shape.max) fail(`Field '${field}' is larger than the maximum length`);
      return;
    case "integer":
    case "long":
    case "float":
    case "double":
      if (typeof value !== "number" || ((shape.type === "integer" || shape.type === "long") && !Number.isInteger(value))) fail(`Field '${field}' must be a number`);
      if (shape.min !== undefined && value < shape.min) fail(`Field '${field}' is less than the minimum value`);
      if (shape.max !== undefined && value > shape.max) fail(`Field '${field}' exceeds the maximum value`);
      return;
    case "boolean":
      if (typeof value !== "boolean") fail(`Field '${field}' must be a boolean`);
      return;
    default:
      // document: any JSON value.
      return;
  }
}

/** Throws ValidationException when `result` does not fit the output of the API `resource` calls. */
export function checkMockedResult(result: unknown, resource: string, mode: FieldValidationMode): void {
  if (mode === FieldValidationMode.None) return;
  const api = operationOf(resource);
  const model = api && SERVICES.get(api.service);
  // The operation comes from the definition: looked up as an own key only ("__proto__" is no operation).
  if (!api || !model || !Object.hasOwn(model.outputs, api.operation)) return;
  checkValue(result, model.outputs[api.operation], model, "", mode === FieldValidationMode.Strict);
}
