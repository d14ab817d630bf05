/**
 * Ctrl-C and SIGTERM while the local cloud runs. The first signal starts a clean stop (finish in-flight batches,
 * stop the functions, remove the state file and the functions' temporary folders); later ones only say that the
 * stop is under way. Handlers stay installed until the stop is done: with `process.once` a second Ctrl-C (a
 * user's, or a launcher relaying the first) would find no handler and end the process mid-stop.
 */
export interface Interrupts {
  /** Resolves with the first signal received. */
  readonly signalled: Promise<NodeJS.Signals>;
  /** True once a signal arrived. */
  readonly received: () => boolean;
  /** Removes the handlers (after the stop). */
  dispose(): void;
}

/** Installs the Ctrl-C and SIGTERM handlers for a running local cloud; `say` prints the progress lines. */
export function watchInterrupts(say: (line: string) => void): Interrupts {
  let first: NodeJS.Signals | undefined;
  let resolve!: (signal: NodeJS.Signals) => void;
  const signalled = new Promise<NodeJS.Signals>((r) => (resolve = r));
  const onSignal = (signal: NodeJS.Signals) => {
    if (first === undefined) {
      first = signal;
      resolve(signal);
      return;
    }
    say(`${signal}: still stopping (finishing in-flight batches, removing temporary files)…`);
  };
  const signals: NodeJS.Signals[] = ["SIGINT", "SIGTERM"];
  for (const signal of signals) process.on(signal, onSignal);
  return {
    signalled,
    received: () => first !== undefined,
    dispose: () => signals.forEach((signal) => process.off(signal, onSignal)),
  };
}
