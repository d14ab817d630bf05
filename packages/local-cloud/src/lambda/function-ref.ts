import { InvalidParameterValueException, ResourceNotFoundException } from "./errors";

/** A function name as Invoke accepts it, split into name and qualifier. */
interface FunctionRef {
  name: string;
  qualifier?: string;
}

// arn:aws:lambda:us-east-1:123456789012:function:name[:qualifier], 123456789012:function:name[:qualifier],
// name[:qualifier]
const FULL_ARN = /^arn:aws[a-zA-Z-]*:lambda:([a-z0-9-]+):(\d{12}):function:([a-zA-Z0-9-_]+)(?::([a-zA-Z0-9-_$]+))?$/;
const PARTIAL_ARN = /^\d{12}:function:([a-zA-Z0-9-_]+)(?::([a-zA-Z0-9-_$]+))?$/;
const NAME = /^([a-zA-Z0-9-_]+)(?::([a-zA-Z0-9-_$]+))?$/;

/** The parts of a full function ARN, or undefined when it is not one. */
export function parseFunctionArn(arn: string): { region: string; account: string; name: string; qualifier?: string } | undefined {
  const match = FULL_ARN.exec(arn);
  if (!match) return undefined;
  return { region: match[1] as string, account: match[2] as string, name: match[3] as string, qualifier: match[4] };
}

/** Parses FunctionName + Qualifier like the Invoke API; only `$LATEST` exists locally. */
export function parseFunctionRef(functionName: string, qualifier: string | undefined, unknownArn: (ref: FunctionRef) => string): FunctionRef {
  const arn = parseFunctionArn(functionName);
  const match = arn ? [functionName, arn.name, arn.qualifier] : (PARTIAL_ARN.exec(functionName) ?? NAME.exec(functionName));
  if (!match) {
    throw new InvalidParameterValueException(
      `1 validation error detected: Value '${functionName}' at 'functionName' failed to satisfy constraint: Member must satisfy regular expression pattern`,
    );
  }
  const name = match[1] as string;
  const derived = match[2];
  if (derived !== undefined && qualifier !== undefined && derived !== qualifier) {
    throw new InvalidParameterValueException("The derived qualifier from the function name does not match the specified qualifier.");
  }
  const ref: FunctionRef = { name, qualifier: derived ?? qualifier };
  if (ref.qualifier !== undefined && ref.qualifier !== "$LATEST") {
    throw new ResourceNotFoundException(`Function not found: ${unknownArn(ref)}`);
  }
  return ref;
}
