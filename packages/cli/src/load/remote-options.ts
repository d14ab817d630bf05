import type { TargetOptions } from "@effectively-once/ops";

/** Which load tool runs against the deployed stack: the stream and the report differ, the path is the same. */
export const LoadTool = { Soak: "soak", Bench: "bench" } as const;
export type LoadTool = (typeof LoadTool)[keyof typeof LoadTool];

/** `--target`: the local cloud the tool boots itself (default), or a deployed stack named by its outputs file. */
export const LoadTarget = { Local: "local", Aws: "aws" } as const;
export type LoadTarget = (typeof LoadTarget)[keyof typeof LoadTarget];

/** Everything `npx effectively-once soak|bench -- --target aws` takes. */
export interface RemoteOptions {
  readonly tool: LoadTool;
  /** The deployed stack: outputs file, stack, region and endpoint overrides (packages/ops/src/target.ts resolves it). */
  readonly target: TargetOptions;
  /** The synthesized stack file the cost estimate reads the stack's settings from; undefined = the app's default stack. */
  readonly stackFile?: string;
  readonly messages: number;
  /** The safety cap: `messages` above it is refused. */
  readonly maxMessages: number;
  readonly duplicateRatio: number;
  readonly invalidRatio: number;
  readonly conflictRatio: number;
  readonly rejectedRatio: number;
  readonly app?: string;
  readonly seed: string;
  /** Part of every key: a deployed ledger remembers earlier runs, so each run needs keys of its own. */
  readonly runId: string;
  /** Messages per second; always > 0 against AWS. */
  readonly rate: number;
  readonly maxBacklog: number;
  /** Give up waiting this long after the last send (a retried record comes back after the queue's visibility timeout). */
  readonly settleTimeoutSeconds: number;
  /** The queue must read empty this long before the checks: AWS's approximate counts lag by up to a minute. */
  readonly quietSeconds: number;
  /** Seconds between queue-depth reads while settling. */
  readonly pollSeconds: number;
  /** Check rounds at most (a round repeats while a message has no fate yet). */
  readonly checkRounds: number;
  readonly yes: boolean;
  readonly dryRun: boolean;
  readonly json: boolean;
  readonly jsonFile?: string;
}

/** Defaults that keep an unattended run small and slow: a deployed stack bills every message. */
export const REMOTE_DEFAULTS = {
  messages: 1000,
  maxMessages: 1000,
  rate: 10,
  maxBacklog: 200,
  // A retried record comes back after the queue's visibility timeout (1,140 s by default), then 3 min to settle.
  settleTimeoutSeconds: 1320,
  quietSeconds: 60,
  pollSeconds: 2,
  checkRounds: 3,
} as const;

/** The soak's stream mix, unchanged; the bench sends unique keys and duplicates only (its local default, 20%). */
export const REMOTE_MIX: Readonly<Record<LoadTool, Pick<RemoteOptions, "duplicateRatio" | "invalidRatio" | "conflictRatio" | "rejectedRatio" | "seed">>> = {
  soak: { duplicateRatio: 0.3, invalidRatio: 0.01, conflictRatio: 0.005, rejectedRatio: 0.005, seed: "soak" },
  bench: { duplicateRatio: 0.2, invalidRatio: 0, conflictRatio: 0, rejectedRatio: 0, seed: "bench" },
};
