/**
 * `inspectionData` at DEBUG and TRACE (INFO carries none): which data-flow stages each state type reports in each
 * query language, as recorded on AWS (LocalStack's AWS-validated snapshots under tests/aws/services/stepfunctions/v2/
 * test_state/, 2025-11 to 2026-03). The interpreter reports every stage it passes through (runtime/probe.ts); this
 * table picks what AWS shows. TRACE adds the HTTP request and response of HTTP Tasks only, which do not run locally,
 * so it equals DEBUG here. JSON values travel as JSON text, the Map's limits as numbers.
 */
import { QueryLanguage } from "../definition/compiled";
import type { InspectionStage } from "../runtime/probe";
import type { InspectionData, InspectionErrorDetails } from "./types";

type Reported = InspectionStage;

/** Recorded per type: e.g. a JSONPath Pass with `Result` shows `result` and no afterInputPath/afterParameters. */
const JSONPATH = new Map<string, readonly Reported[]>([
  ["Task", ["afterInputPath", "afterParameters", "result", "afterResultSelector", "afterResultPath"]],
  ["Pass", ["afterInputPath", "afterParameters", "result", "afterResultSelector", "afterResultPath"]],
  ["Map", ["afterInputPath", "afterItemsPath", "afterItemSelector", "maxConcurrency", "toleratedFailureCount", "toleratedFailurePercentage", "afterResultSelector", "afterResultPath"]],
  // A mocked Parallel shows neither afterInputPath nor afterParameters, JSONPath or not (recorded 2026-02-24).
  ["Parallel", ["afterResultSelector", "afterResultPath"]],
  ["Choice", ["afterInputPath"]],
  ["Succeed", ["afterInputPath"]],
  ["Wait", ["afterInputPath"]],
  ["Fail", ["afterInputPath"]],
]);
const JSONATA = new Map<string, readonly Reported[]>([
  ["Task", ["afterArguments", "result"]],
  ["Map", ["afterItemSelector", "maxConcurrency", "toleratedFailureCount", "toleratedFailurePercentage"]],
]);
const NUMBERS = new Set<Reported>(["maxConcurrency", "toleratedFailureCount", "toleratedFailurePercentage"]);

export interface Observed {
  readonly type: string;
  readonly language: QueryLanguage;
  /** The state's raw input. */
  readonly input: unknown;
  /** Each stage the state passed, last value kept. */
  readonly stages: ReadonlyMap<Reported, unknown>;
  readonly errorDetails: InspectionErrorDetails;
  /** Every variable in scope after the state: given with the test, then assigned by it. */
  readonly variables: Record<string, unknown>;
}

const text = (value: unknown): string | undefined => (value === undefined ? undefined : JSON.stringify(value));

export function inspectionData(seen: Observed): InspectionData {
  const data: Record<string, unknown> = { input: text(seen.input) };
  const fields = (seen.language === QueryLanguage.JSONata ? JSONATA : JSONPATH).get(seen.type) ?? [];
  for (const field of fields) {
    // A Fail state has no InputPath; AWS still reports its input as afterInputPath.
    const value = seen.stages.has(field) ? seen.stages.get(field) : field === "afterInputPath" && seen.type === "Fail" ? seen.input : undefined;
    if (value !== undefined) data[field] = NUMBERS.has(field) ? value : text(value);
  }
  if (Object.keys(seen.errorDetails).length > 0) data.errorDetails = seen.errorDetails;
  if (Object.keys(seen.variables).length > 0) data.variables = text(seen.variables);
  return data as InspectionData;
}
