/**
 * The pipeline's fates as CloudWatch metrics: one namespace, one metric name per fate, and dimensions that never
 * carry a business key or a message id (each distinct dimension value is one more custom metric, billed monthly).
 * The function publishes them with Powertools Metrics (CloudWatch's embedded metric format: a log line, no API
 * call); the dashboard and the cost model read these names, so they are spelled here only.
 */
export const FATE_METRICS_NAMESPACE = "EffectivelyOnce";

/** Powertools Metrics' default dimension: the function's `POWERTOOLS_SERVICE_NAME`, i.e. the pipeline's `namePrefix`. */
export const FATE_SERVICE_DIMENSION = "service";

/** One metric name per fate, counted once per record whatever the shape of the invocation that carried it. */
export const FateMetric = {
  /** The side effect ran for this record (the function's verdict; the record then completes its claim). */
  Applied: "Applied",
  /** The function's second layer (Powertools, or an earlier release's record) answered: the effect did not run again. */
  Duplicate: "Duplicate",
  /** Milliseconds from the message's first send (its first-sent timestamp survives a redrive) to its effect. */
  SendToEffect: "SendToEffectMs",
  /**
   * The workflow acknowledged the record as a duplicate without invoking the function: the ledger held the key
   * completed with the same payload, or a copy with the very same body in the same batch was applied or recognised.
   */
  RecognisedDuplicate: "RecognisedDuplicate",
  /** The workflow quarantined the record in the DLQ; published per {@link FATE_REASON_DIMENSION} (a `DlqReason`). */
  Quarantined: "Quarantined",
  /** The workflow handed the record back to the pipe (`batchItemFailures`): it comes again after the visibility timeout. */
  Retried: "Retried",
} as const;
export type FateMetric = (typeof FateMetric)[keyof typeof FateMetric];

/** The dimension of {@link FateMetric.Quarantined}: the quarantine's reason, one of a fixed set (`DlqReason`), never outside text. */
export const FATE_REASON_DIMENSION = "reason";

/** The fate metrics the function publishes, with the unit each is published in (CloudWatch's unit names). */
export const FUNCTION_FATE_METRICS: readonly { readonly name: FateMetric; readonly unit: "Count" | "Milliseconds" }[] = [
  { name: FateMetric.Applied, unit: "Count" },
  { name: FateMetric.Duplicate, unit: "Count" },
  { name: FateMetric.SendToEffect, unit: "Milliseconds" },
];

/**
 * The fate metrics the workflow publishes after its Map, for the fates it decides without the function (one caught
 * `putLogEvents` of EMF documents per batch that has such a fate; statemachines/src/fate-count.ts), with their
 * dimensions beside `service`. The function's `Applied`/`Duplicate` and these never count the same record.
 */
export const WORKFLOW_FATE_METRICS: readonly { readonly name: FateMetric; readonly unit: "Count"; readonly byReason: boolean }[] = [
  { name: FateMetric.RecognisedDuplicate, unit: "Count", byReason: false },
  { name: FateMetric.Quarantined, unit: "Count", byReason: true },
  { name: FateMetric.Retried, unit: "Count", byReason: false },
];
