/** What the soak's progress line shows. */
export interface ProgressState {
  readonly total: number;
  readonly published: number;
  /** Messages with a final outcome (processed, duplicate or quarantined). */
  readonly settled: number;
  readonly retried: number;
  readonly faults: number;
  readonly elapsedMs: number;
}

export interface ProgressOutput {
  write(text: string): unknown;
  readonly isTTY?: boolean;
}

const BAR_WIDTH = 24;

function fmt(n: number): string {
  return n.toLocaleString("en-US");
}

/** One progress line, e.g. `[#########...] 38%  3,812/10,000 settled · published 4,100 · …`. */
export function formatProgress(state: ProgressState): string {
  const share = state.total > 0 ? Math.min(1, state.settled / state.total) : 0;
  const filled = Math.round(share * BAR_WIDTH);
  const seconds = state.elapsedMs / 1000;
  const rate = seconds > 0 ? state.settled / seconds : 0;
  const left = state.total - state.settled;
  const eta = rate > 0 && left > 0 ? `ETA ${Math.ceil(left / rate)} s` : "";
  return [
    `[${"#".repeat(filled)}${".".repeat(BAR_WIDTH - filled)}] ${String(Math.floor(share * 100)).padStart(3)}%`,
    `${fmt(state.settled)}/${fmt(state.total)} settled`,
    `published ${fmt(state.published)}`,
    `retried ${fmt(state.retried)}`,
    `faults ${fmt(state.faults)}`,
    `${rate.toFixed(0)} msg/s`,
    `${seconds.toFixed(0)} s`,
    eta,
  ]
    .filter(Boolean)
    .join("  ");
}

export interface ProgressBar {
  /** Stops the timer and writes the final line. */
  stop(): void;
}

/**
 * Draws progress on a stream (stderr): on a terminal one line rewritten in place every `ttyIntervalMs`;
 * otherwise (CI, a file) a plain line every `lineIntervalMs`, so logs stay readable.
 */
export function startProgressBar(
  out: ProgressOutput,
  read: () => ProgressState,
  options: { ttyIntervalMs?: number; lineIntervalMs?: number } = {},
): ProgressBar {
  const tty = Boolean(out.isTTY);
  const draw = () => out.write(tty ? `\r${formatProgress(read())}\x1b[K` : `${formatProgress(read())}\n`);
  const timer = setInterval(draw, tty ? (options.ttyIntervalMs ?? 200) : (options.lineIntervalMs ?? 5000));
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      out.write(tty ? `\r${formatProgress(read())}\x1b[K\n` : `${formatProgress(read())}\n`);
    },
  };
}
