/**
 * `verify --json`: the run as one JSON document on stdout, for a pipeline that reads it (the text report's facts,
 * differences and failed checks, the probe stack, and on AWS the itemised cost). Progress stays on stderr.
 */
import type { Comparison } from "./compare";
import type { CostEstimate } from "./cost";
import type { ProbeStack } from "./probe-stack";
import type { AnswerSet, PlannedCall, Probe } from "./types";

export interface VerifyJsonInput {
  readonly target: string;
  readonly stack: ProbeStack;
  readonly probes: readonly Probe[];
  readonly cost?: CostEstimate;
  /** --dry-run: the calls it would make, and nothing else ran. */
  readonly plannedCalls?: readonly PlannedCall[];
  readonly comparison?: Comparison;
  /** The AWS answers compared with: live (--target aws) or recorded (--aws-answers, with its file). */
  readonly awsAnswers?: { readonly source: "live" } | { readonly source: "recorded"; readonly file: string; readonly set: AnswerSet };
  readonly exitCode: number;
}

/** The document `verify --json` prints; `ok` is exit code 0 (no difference, no failed check). */
export function verifyJson(input: VerifyJsonInput): Record<string, unknown> {
  const { stack, comparison } = input;
  const recorded = input.awsAnswers?.source === "recorded" ? input.awsAnswers : undefined;
  return {
    ok: input.exitCode === 0,
    exitCode: input.exitCode,
    target: input.target,
    probeStack: { stackName: stack.config.stackName, namePrefix: stack.config.namePrefix, region: stack.stack.region, probeId: stack.probeId, ...(stack.stateFile ? { stateFile: stack.stateFile } : {}), destroyCommand: stack.destroyCommand },
    ...(input.cost ? { cost: input.cost } : {}),
    ...(input.plannedCalls ? { dryRun: true, plannedCalls: input.plannedCalls } : {}),
    ...(input.awsAnswers ? { awsAnswers: recorded ? { source: "recorded", file: recorded.file, takenAt: recorded.set.takenAt, region: recorded.set.region } : { source: "live" } } : {}),
    ...(comparison
      ? {
          probes: comparison.probes.map((p) => {
            const probe = input.probes.find((x) => x.id === p.probe);
            return { id: p.probe, title: probe?.title, protects: probe?.protects, facts: p.facts, errors: p.errors, failures: p.failures };
          }),
          differences: comparison.differences,
          failures: comparison.probes.flatMap((p) => p.failures.map((f) => `${p.probe}: ${f}`)),
        }
      : {}),
  };
}
