import { Metrics, MetricUnit } from "@aws-lambda-powertools/metrics";
import { FATE_METRICS_NAMESPACE, FateMetric } from "@effectively-once/contract";

/**
 * The fates the function decides, as CloudWatch metrics through Powertools Metrics (the embedded metric format: one
 * JSON log line per invocation that CloudWatch turns into metrics, no API call, no extra permission).
 *
 * Counted per record, not per invocation: each record adds one value, and an invocation that carries several records
 * writes them all in its one line (Powertools keeps repeated values of a metric as a list; CloudWatch sums them). So
 * the counts stay right whatever the invocation's shape. The only dimension is Powertools' `service` (the pipeline's
 * `namePrefix`): never a key or a message id, each distinct value of which would be one more custom metric.
 *
 * The fates the workflow decides without invoking the function (ledger duplicates, quarantines, retries) are not the
 * function's to count: see docs/operations.md, "Fate metrics".
 */
export interface FateMetrics {
  /** One record's side effect ran: `Applied`, and `SendToEffectMs` when the event carries its first-send time. */
  applied(record: { readonly firstSentAt?: number }): void;
  /** One record was answered by the second layer (the effect did not run again). */
  duplicate(): void;
  /**
   * Hands what this invocation counted on and starts afresh: into `to` (the invocation's one log line, which then is
   * the EMF document itself: no second line, no second copy of the service name), or as Powertools' own line at a
   * level (`{ level }`: see {@link OwnLine}), or nowhere (`"none"`: a SILENT logger, as in tests and the simulation).
   * Nothing when nothing was counted.
   */
  flush(to: ((fields: Record<string, unknown>) => void) | OwnLine | "none"): void;
}

/**
 * The metrics as a line of their own, when the function logs above INFO (no invocation line to carry them), with a
 * top-level `level` and `timestamp` (RFC 3339): Lambda's log-level filter counts a JSON line without a valid level, or
 * without a valid timestamp, as INFO and drops it at WARN or ERROR (Lambda developer guide, "Log-level filtering"), and
 * Powertools Metrics writes neither. `level` is the function's own (one Lambda keeps); CloudWatch still extracts the
 * metrics: the EMF specification lets the root node hold other members.
 */
export interface OwnLine {
  readonly level: string;
}

/** `metrics`: a Powertools Metrics instance (tests pass their own); `now`: epoch ms (the local cloud's clock when run there). */
export function createFateMetrics(options: { readonly serviceName: string; readonly metrics?: Metrics; readonly now?: () => number }): FateMetrics {
  const metrics = options.metrics ?? new Metrics({ namespace: FATE_METRICS_NAMESPACE, serviceName: options.serviceName });
  const now = options.now ?? Date.now;
  let counted = 0;
  return {
    applied(record) {
      metrics.addMetric(FateMetric.Applied, MetricUnit.Count, 1);
      // A clock that runs behind the producer's gives no negative latency.
      if (record.firstSentAt !== undefined) metrics.addMetric(FateMetric.SendToEffect, MetricUnit.Milliseconds, Math.max(0, now() - record.firstSentAt));
      counted++;
    },
    duplicate() {
      metrics.addMetric(FateMetric.Duplicate, MetricUnit.Count, 1);
      counted++;
    },
    flush(to) {
      // Powertools warns on an empty flush: an invocation that failed or was refused counts nothing here.
      if (counted === 0) return;
      counted = 0;
      if (typeof to === "object") {
        // Metadata is a root member of the document, set per publish: publishStoredMetrics clears it (Powertools 2.35).
        metrics.addMetadata("level", to.level).addMetadata("timestamp", new Date().toISOString()).publishStoredMetrics();
        return;
      }
      if (to !== "none") {
        // The line has its `service` already (the logger's, built from the same POWERTOOLS_SERVICE_NAME).
        const { service: _service, ...document } = metrics.serializeMetrics();
        to(document);
      }
      metrics.clearMetrics();
    },
  };
}
