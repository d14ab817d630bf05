/**
 * The knee of a stepped-rate load: the offered rate at which throughput stops rising. Below it the pipeline keeps
 * up (throughput tracks the offered rate); above it throughput stays at one level however much more is offered, and
 * that level is the highest rate the pipeline sustains (what `planCapacity` predicts as `maxSustainableRate`).
 */
export interface LoadStep {
  /** Messages per second sent during the step. */
  readonly offered: number;
  /** Messages per second that reached their fate during the step. */
  readonly throughput: number;
}

export interface Knee {
  /** The plateau: the median throughput of the saturated steps (msg/s). */
  readonly rate: number;
  /** Steps whose throughput kept up with the offered rate. */
  readonly tracking: readonly LoadStep[];
  /** Steps whose throughput fell behind: the plateau. */
  readonly saturated: readonly LoadStep[];
  /** Widest spread of the saturated steps around the plateau, as a share of it (flat = small). */
  readonly spread: number;
}

/**
 * Splits the steps (sorted by offered rate) after the last one whose throughput kept up (at least `keepUp` × offered):
 * every step above it is the plateau. The last, not the first: a low step that lost one message at its window's
 * edge does not make the whole run saturated. Null when the highest step kept up (the knee lies above the steps).
 */
export function findKnee(steps: readonly LoadStep[], keepUp = 0.9): Knee | null {
  const sorted = [...steps].sort((a, b) => a.offered - b.offered);
  let lastTracking = -1;
  sorted.forEach((s, i) => {
    if (s.throughput >= keepUp * s.offered) lastTracking = i;
  });
  const saturated = sorted.slice(lastTracking + 1);
  if (saturated.length === 0) return null;
  // The median: the first saturated step may dip (its queue still empties now and then, while throttled pollers
  // wait out their backoff) and one step may catch a busy host; neither should move the plateau.
  const rate = median(saturated.map((s) => s.throughput));
  const spread = Math.max(...saturated.map((s) => Math.abs(s.throughput - rate) / rate));
  return { rate, tracking: sorted.slice(0, lastTracking + 1), saturated, spread };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** |measured − predicted| ÷ predicted. */
export function relativeError(measured: number, predicted: number): number {
  return Math.abs(measured - predicted) / predicted;
}
