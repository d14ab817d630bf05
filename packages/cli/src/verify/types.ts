/**
 * What `npx effectively-once verify` works with: probes, their answers, and the answer sets it compares. An answer is a list of
 * named facts, each a short text, so that two answer sets (AWS's and the local cloud's, or a recorded one) compare
 * fact by fact and a difference can be named.
 */
import type { CloudWatchClient } from "@aws-sdk/client-cloudwatch";
import type { CloudWatchLogsClient } from "@aws-sdk/client-cloudwatch-logs";
import type { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import type { SFNClient } from "@aws-sdk/client-sfn";
import type { SQSClient } from "@aws-sdk/client-sqs";
import type { AlarmReader } from "./alarms";
import type { ProbeStack } from "./probe-stack";

export const VerifyTarget = { Local: "local", Aws: "aws" } as const;
export type VerifyTarget = (typeof VerifyTarget)[keyof typeof VerifyTarget];

/** One observed fact: its name within the probe, its value as text, and `false` when it is shown but never compared (ids, sizes). */
export type Fact = readonly [name: string, value: string, compared?: false];

/** What one probe observed on one target. */
export interface ProbeAnswer {
  readonly probe: string;
  readonly facts: readonly Fact[];
  /** Why the probe could not finish (its facts so far are kept). */
  readonly error?: string;
  /** Checks that fail whatever the other side answers: e.g. a record larger than the synth's worst case. */
  readonly failures?: readonly string[];
}

/** Every probe's answer on one target: what `--record` writes and `--aws-answers` reads. */
export interface AnswerSet {
  readonly target: string;
  /** ISO time the answers were taken. */
  readonly takenAt: string;
  /** The region, and the probe stack's name prefix, the answers come from. */
  readonly region?: string;
  readonly namePrefix?: string;
  readonly answers: readonly ProbeAnswer[];
}

/** One AWS call a probe makes: what `--dry-run` lists and the estimate prices. */
export interface PlannedCall {
  readonly service: "SQS" | "DynamoDB" | "Step Functions" | "CloudWatch Logs" | "CloudWatch" | "Terraform";
  readonly action: string;
  readonly count: number;
  readonly resource: string;
  readonly why: string;
}

/** The clients a probe calls: one set per target, each addressed by endpoint (AWS's own when none is given). */
export interface ProbeClients {
  readonly sqs: SQSClient;
  readonly dynamodb: DynamoDBClient;
  readonly sfn: SFNClient;
  readonly logs: CloudWatchLogsClient;
  readonly cloudwatch: CloudWatchClient;
}

/** Time, injectable: on the local cloud a wait moves its shared clock instead of sleeping. */
export interface VerifyClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

/** What a probe runs with. */
export interface ProbeContext {
  readonly clients: ProbeClients;
  /** The stack's alarms (DescribeAlarms on AWS or on the local cloud's CloudWatch endpoint). */
  readonly alarms?: AlarmReader;
  readonly stack: ProbeStack;
  /** The deployed probe stack's outputs (checked to name the probe stack's resources only). */
  readonly outputs: Readonly<Record<string, unknown>>;
  /** Part of every probe message's key and body: a run never meets an earlier run's ledger entries. */
  readonly runId: string;
  readonly clock: VerifyClock;
  /** The deployer's `terraform plan` after apply (aws), or the offline prediction (local). */
  readonly replan: () => Promise<string>;
  readonly note: (line: string) => void;
  /** Aborted on Ctrl-C: waits stop, the run goes on to the teardown. */
  readonly signal?: AbortSignal;
}

/** One probe: what it protects, the calls it makes, and how it observes. */
export interface Probe {
  readonly id: string;
  readonly title: string;
  /** The rule of docs/guarantees.md the offline proof assumes here. */
  readonly protects: string;
  /** False: the probe needs no deployed stack (TestState). */
  readonly needsStack: boolean;
  /** Whether the probe applies to the team's stack (absent: to every stack); e.g. FIFO's only to a FIFO stack. */
  appliesTo?(stack: ProbeStack): boolean;
  calls(stack: ProbeStack): PlannedCall[];
  run(context: ProbeContext): Promise<{ facts: Fact[]; failures?: string[] }>;
}
