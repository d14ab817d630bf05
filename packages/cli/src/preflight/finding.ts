/** ok ✔, warn !, fail ✘ (the deploy would fail or do damage), info · (shown, not judged). */
export type Level = "ok" | "warn" | "fail" | "info";

/** One line of the preflight's report. */
export interface Finding {
  readonly level: Level;
  readonly text: string;
}
