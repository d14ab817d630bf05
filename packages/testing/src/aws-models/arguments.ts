import { inputShapeOf, serviceModel, shapeOf, type ModelFile } from "./model";

/** One way a Task's Arguments break the API model: where (a path from the Arguments) and what. */
export interface ArgumentProblem {
  readonly path: string;
  readonly problem: string;
}

/** A JSONata template (`{% … %}`): its value is known only during a run. */
function isJsonata(value: unknown): boolean {
  return typeof value === "string" && value.startsWith("{%") && value.endsWith("%}");
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** botocore's patterns are whole-value regular expressions without anchors. */
function matchesPattern(value: string, pattern: string): boolean {
  try {
    return new RegExp(`^(?:${pattern})$`, "u").test(value);
  } catch {
    return true; // a pattern JavaScript cannot compile is not held against the value
  }
}

/**
 * Checks a value against a model shape: a structure's member names and required members, enum values, list lengths,
 * string lengths and patterns, integer bounds. A JSONata template is accepted wherever a value may stand, since its
 * value exists only at run time (the evaluated Arguments of a run are checked the same way). `blob` accepts any JSON:
 * the optimized Lambda integration takes its `Payload` as JSON.
 */
function checkValue(file: ModelFile, shapeName: string, value: unknown, path: string): ArgumentProblem[] {
  if (isJsonata(value)) return [];
  const shape = shapeOf(file, shapeName);
  const at = (problem: string): ArgumentProblem[] => [{ path, problem }];
  switch (shape.type) {
    case "structure": {
      if (!isObject(value)) return at(`must be an object (${shapeName})`);
      const members = shape.members ?? {};
      const problems: ArgumentProblem[] = [];
      for (const [name, member] of Object.entries(value)) {
        const spec = Object.prototype.hasOwnProperty.call(members, name) ? members[name] : undefined;
        if (!spec) problems.push({ path: `${path}.${name}`, problem: `is not a member of ${shapeName} (members: ${Object.keys(members).join(", ")})` });
        else problems.push(...checkValue(file, spec.shape, member, `${path}.${name}`));
      }
      for (const name of shape.required ?? []) {
        if (!Object.prototype.hasOwnProperty.call(value, name)) problems.push({ path: `${path}.${name}`, problem: `is required by ${shapeName} and missing` });
      }
      return problems;
    }
    case "map": {
      if (!isObject(value)) return at(`must be an object (${shapeName})`);
      return Object.entries(value).flatMap(([key, item]) => [...checkValue(file, shape.key!.shape, key, `${path}[${JSON.stringify(key)}]`), ...checkValue(file, shape.value!.shape, item, `${path}[${JSON.stringify(key)}]`)]);
    }
    case "list": {
      if (!Array.isArray(value)) return at(`must be a list (${shapeName})`);
      const problems = value.flatMap((item, i) => checkValue(file, shape.member!.shape, item, `${path}[${i}]`));
      if (shape.min !== undefined && value.length < shape.min) problems.push({ path, problem: `holds ${value.length} items, fewer than ${shapeName}'s minimum ${shape.min}` });
      if (shape.max !== undefined && value.length > shape.max) problems.push({ path, problem: `holds ${value.length} items, more than ${shapeName}'s maximum ${shape.max}` });
      return problems;
    }
    case "string": {
      if (typeof value !== "string") return at(`must be a string (${shapeName})`);
      if (shape.enum && !shape.enum.includes(value)) return at(`"${value}" is not one of ${shapeName}'s values (${shape.enum.join(", ")})`);
      if (shape.min !== undefined && value.length < shape.min) return at(`is shorter than ${shapeName}'s minimum ${shape.min}`);
      if (shape.max !== undefined && value.length > shape.max) return at(`is longer than ${shapeName}'s maximum ${shape.max}`);
      // A string holding a JSONata template or a Terraform reference is known only later.
      if (shape.pattern && !value.includes("{%") && !value.includes("${") && !matchesPattern(value, shape.pattern)) return at(`"${value}" does not match ${shapeName}'s pattern ${shape.pattern}`);
      return [];
    }
    case "integer":
    case "long": {
      if (typeof value !== "number" || !Number.isInteger(value)) return at(`must be a whole number (${shapeName})`);
      if (shape.min !== undefined && value < shape.min) return at(`${value} is below ${shapeName}'s minimum ${shape.min}`);
      if (shape.max !== undefined && value > shape.max) return at(`${value} is above ${shapeName}'s maximum ${shape.max}`);
      return [];
    }
    case "boolean":
      return typeof value === "boolean" ? [] : at(`must be true or false (${shapeName})`);
    default:
      return [];
  }
}

/** The service and operation an optimized integration's Resource names (`arn:<partition>:states:::dynamodb:putItem`). */
export function operationOfResource(resource: string): { file: ModelFile; operation: string } {
  const found = /^arn:aws[a-z-]*:states:::(dynamodb|lambda|sqs|aws-sdk:cloudwatchlogs):([a-z][A-Za-z]*)$/.exec(resource);
  if (!found) throw new Error(`no vendored model for Task resource ${resource}`);
  // An AWS SDK integration names the service as the SDK does (`cloudwatchlogs`); its model is botocore's `logs`.
  const file = (found[1] === "aws-sdk:cloudwatchlogs" ? "logs" : found[1]) as ModelFile;
  return { file, operation: found[2][0].toUpperCase() + found[2].slice(1) };
}

/** Every way a Task's Arguments break the input shape of the operation its Resource names. */
export function checkTaskArguments(resource: string, args: unknown): ArgumentProblem[] {
  const { file, operation } = operationOfResource(resource);
  return checkValue(file, inputShapeOf(file, operation), args, "Arguments");
}

/**
 * Every way `value` breaks an operation's input or output shape: a request a client sends, or an answer (recorded, or
 * a local endpoint's) a test holds to what AWS's model says the operation returns. Output shapes are kept only for the
 * operations scripts/aws-models/extract.mjs lists under `outputs`.
 */
export function checkOperationShape(file: ModelFile, operation: string, direction: "input" | "output", value: unknown): ArgumentProblem[] {
  const op = serviceModel(file).operations[operation];
  const shape = direction === "input" ? inputShapeOf(file, operation) : op?.output;
  if (!shape) throw new Error(`packages/testing/src/aws-models/${file}.json keeps no ${direction} shape of ${operation}: add it to scripts/aws-models/extract.mjs and regenerate`);
  return checkValue(file, shape, value, direction === "input" ? "Request" : "Answer");
}
