import { readFileSync } from "node:fs";
import { join } from "node:path";

/** One shape of an AWS API model (botocore's JSON form). */
export interface Shape {
  readonly type: "structure" | "list" | "map" | "string" | "integer" | "long" | "boolean" | "blob" | "timestamp" | "double" | "float";
  readonly members?: Readonly<Record<string, { readonly shape: string }>>;
  readonly required?: readonly string[];
  readonly member?: { readonly shape: string };
  readonly key?: { readonly shape: string };
  readonly value?: { readonly shape: string };
  readonly enum?: readonly string[];
  readonly min?: number;
  readonly max?: number;
  readonly pattern?: string;
  readonly documentation?: string;
}

/** A vendored model extract (packages/testing/src/aws-models/<service>.json). */
export interface ServiceModel {
  readonly source: { readonly botocore: string; readonly path: string };
  readonly metadata: { readonly apiVersion: string; readonly serviceId: string };
  /** Each kept operation's input shape, and its output shape where a test shapes AWS's answers by it. */
  readonly operations: Readonly<Record<string, { readonly input: string; readonly output?: string }>>;
  readonly shapes: Readonly<Record<string, Shape>>;
}

export const MODEL_FILES = ["dynamodb", "lambda", "sqs", "stepfunctions", "pipes", "logs", "iam", "cloudwatch"] as const;
export type ModelFile = (typeof MODEL_FILES)[number];

const cache = new Map<ModelFile, ServiceModel>();

/** The vendored extract of one service's model. */
export function serviceModel(file: ModelFile): ServiceModel {
  let model = cache.get(file);
  if (!model) {
    model = JSON.parse(readFileSync(join(__dirname, `${file}.json`), "utf8")) as ServiceModel;
    cache.set(file, model);
  }
  return model;
}

/** One named shape; throws naming the service when the extract does not hold it. */
export function shapeOf(file: ModelFile, name: string): Shape {
  const shape = serviceModel(file).shapes[name];
  if (!shape) throw new Error(`packages/testing/src/aws-models/${file}.json has no shape ${name}: add it to scripts/aws-models/extract.mjs and regenerate`);
  return shape;
}

/** The input shape's name of an operation. */
export function inputShapeOf(file: ModelFile, operation: string): string {
  const op = serviceModel(file).operations[operation];
  if (!op) throw new Error(`packages/testing/src/aws-models/${file}.json has no operation ${operation}: add it to scripts/aws-models/extract.mjs and regenerate`);
  return op.input;
}
