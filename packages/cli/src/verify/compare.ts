/**
 * Two answer sets side by side, fact by fact: AWS's (live or recorded) and the local cloud's. A fact that differs,
 * or that one side has and the other lacks, is a difference and is named; facts marked not compared (ids, sizes)
 * are shown only. A probe that failed on either side is a difference of its own.
 */
import type { AnswerSet, ProbeAnswer } from "./types";

export interface ComparedFact {
  readonly name: string;
  readonly aws?: string;
  readonly local?: string;
  readonly compared: boolean;
  readonly differs: boolean;
}

export interface ComparedProbe {
  readonly probe: string;
  readonly facts: readonly ComparedFact[];
  readonly errors: readonly string[];
  readonly failures: readonly string[];
}

export interface Difference {
  readonly probe: string;
  readonly fact: string;
  readonly aws: string;
  readonly local: string;
}

export interface Comparison {
  readonly probes: readonly ComparedProbe[];
  readonly differences: readonly Difference[];
}

const ABSENT = "(no answer)";

function compareProbe(id: string, aws: ProbeAnswer | undefined, local: ProbeAnswer | undefined): ComparedProbe {
  const names = [...new Set([...(aws?.facts ?? []), ...(local?.facts ?? [])].map(([name]) => name))];
  const facts = names.map((name) => {
    const a = aws?.facts.find(([n]) => n === name);
    const l = local?.facts.find(([n]) => n === name);
    const compared = a?.[2] !== false && l?.[2] !== false;
    return { name, aws: a?.[1], local: l?.[1], compared, differs: aws !== undefined && compared && a?.[1] !== l?.[1] };
  });
  const errors = [aws?.error && `AWS: ${aws.error}`, local?.error && `local: ${local.error}`].filter((e): e is string => Boolean(e));
  const failures = [...(aws?.failures ?? []).map((f) => `AWS: ${f}`), ...(local?.failures ?? []).map((f) => `local: ${f}`)];
  return { probe: id, facts, errors, failures };
}

/** Compares `aws` with `local`, over the probes `local` ran (a recorded AWS set may hold more), in its order. */
export function compareAnswers(aws: AnswerSet | undefined, local: AnswerSet): Comparison {
  const ids = local.answers.map((a) => a.probe);
  const probes = ids.map((id) => compareProbe(id, aws?.answers.find((a) => a.probe === id), local.answers.find((a) => a.probe === id)));
  const differences = aws
    ? probes.flatMap((p) => [
        ...p.facts.filter((f) => f.differs).map((f) => ({ probe: p.probe, fact: f.name, aws: f.aws ?? ABSENT, local: f.local ?? ABSENT })),
        ...p.errors.map((e) => ({ probe: p.probe, fact: "the probe did not finish", aws: e.startsWith("AWS") ? e : "finished", local: e.startsWith("local") ? e : "finished" })),
      ])
    : [];
  return { probes, differences };
}
