/**
 * What a TestState run watches and decides inside the one state it runs (AWS's TestState API): the data-flow stages
 * its `inspectionData` reports, Retry and Catch decisions without waiting, and the mocked result of a Map or Parallel.
 * Executions never carry a probe; every hook is a no-op for them.
 */
import type { Retrier } from "../definition/compiled";
import type { StatesError } from "../errors";

/** Data-flow stages, named as TestState's `inspectionData` names them. */
export type InspectionStage =
  | "afterInputPath"
  | "afterParameters"
  | "afterArguments"
  | "result"
  | "afterResultSelector"
  | "afterResultPath"
  | "afterItemsPath"
  | "afterItemSelector"
  | "maxConcurrency"
  | "toleratedFailureCount"
  | "toleratedFailurePercentage";

export interface StateProbe {
  /** A stage's value as the state computed it. */
  stage(name: InspectionStage, value: unknown): void;
  /**
   * A failed attempt that the retrier at `index` matches. TestState never waits and tries again: it returns the
   * error to throw instead (a retry is pending), or undefined when the retrier is spent, so the error goes on to Catch.
   */
  retrier(index: number, retrier: Retrier, error: StatesError): Error | undefined;
  /** The Catcher at `index` handled `error`. */
  caught(index: number, error: StatesError): void;
  /** The context object the test gave, which replaces the generated one. */
  readonly context?: Record<string, unknown>;
  /**
   * Map and Parallel: the mocked result, instead of running iterations or branches; throws the mocked error.
   * `tolerates` (Maps with ToleratedFailureCount/Percentage) says whether that many failed iterations are tolerated.
   */
  mocked?(limits: { tolerates?: (failures: number) => boolean }): unknown;
}
