import type { DynamoPlacement } from "../dynamodb";
import type { FaultProfile } from "./fault-profile";

/** Everything a soak run takes; `SOAK_DEFAULTS` fills what the command line leaves out. */
export interface SoakOptions {
  /** Messages to publish. */
  readonly messages: number;
  /** Share of messages that repeat an earlier body. */
  readonly duplicateRatio: number;
  /** Share of invalid bodies. */
  readonly invalidRatio: number;
  /** Share of payload conflicts. */
  readonly conflictRatio: number;
  /** Share of messages the function rejects. */
  readonly rejectedRatio: number;
  /** The app (an example name or a folder with stack.ts and profile.ts); undefined = PIPELINE_APP or payments. */
  readonly app?: string;
  /** The module whose `profile` export writes the stream's bodies (a path); undefined = the app's profile.ts. */
  readonly messageProfile?: string;
  /** Seed of the stream and of the faults: the same seed replays the same run. */
  readonly seed: string;
  /** Which faults to inject: `none`, `realistic` or `harsh`. */
  readonly faultProfile: FaultProfile;
  /** Pipe batch size (1-10). */
  readonly batchSize: number;
  /** Pollers of the pipe (batches in flight). */
  readonly pipeConcurrency: number;
  /**
   * Lambda execution environments kept for the function. More than the local cloud's default (cores + 1): under
   * faults a hang holds one for the whole function timeout and a crash replaces one with a cold start.
   */
  readonly functionEnvironments: number;
  /** Publish rate in messages per second; 0 = as fast as the backlog allows. */
  readonly rate: number;
  /** The producer waits while the queue holds this many messages. */
  readonly maxBacklog: number;
  /** Seconds before a retried message reappears (local shortcut for the visibility timeout). */
  readonly retryAfterSeconds: number;
  /** Give up waiting for the pipeline to settle after this many seconds once publishing is done. */
  readonly settleTimeoutSeconds: number;
  /** Where dynalite runs (see `LocalCloudOptions.dynamoPlacement`); the local cloud's default when unset. */
  readonly dynamoPlacement?: DynamoPlacement;
}

/** The defaults of `npm run soak` (10,000 messages, realistic faults); override what a run needs. */
export const SOAK_DEFAULTS: SoakOptions = {
  messages: 10_000,
  duplicateRatio: 0.3,
  invalidRatio: 0.01,
  conflictRatio: 0.005,
  rejectedRatio: 0.005,
  seed: "soak",
  faultProfile: "realistic",
  batchSize: 10,
  pipeConcurrency: 8,
  functionEnvironments: 6,
  rate: 0,
  maxBacklog: 200,
  retryAfterSeconds: 1,
  settleTimeoutSeconds: 300,
};
