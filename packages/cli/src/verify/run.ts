/**
 * One verify run: synthesize the probe stack, print the plan and the estimate, then (aws: only with --yes) run the
 * probes on the local cloud and, for --target aws, on the deployed probe stack, which is destroyed afterwards
 * whatever happens. The answers are compared fact by fact.
 */
import { randomBytes } from "node:crypto";
import { alarmReader } from "./alarms";
import { probeClients } from "./clients";
import type { Comparison } from "./compare";
import { assertProbeOutputs } from "./guard";
import type { ProbeStack } from "./probe-stack";
import type { TargetSession } from "./targets";
import type { AnswerSet, PlannedCall, Probe, ProbeAnswer, VerifyClock } from "./types";

/** A run id of its own: every probe message's key holds it, so a run never meets an earlier one's ledger entries. */
export function newRunId(now = Date.now()): string {
  return `vfy-${now.toString(36)}-${randomBytes(3).toString("hex")}`;
}

/** Every call of a run, in order: the deploy, the probes', the teardown. */
export function plannedCalls(stack: ProbeStack, probes: readonly Probe[], deploys: boolean): PlannedCall[] {
  const resources = Object.values(stack.stack.resources).reduce((n, byId) => n + Object.keys(byId).length, 0);
  const tf = (action: string, why: string): PlannedCall => ({ service: "Terraform", action, count: 1, resource: stack.config.stackName, why });
  return [
    ...(deploys ? [tf("init", "providers from the filesystem mirror only (nothing is downloaded)"), tf("apply -auto-approve", `creates the probe stack's ${resources} resources (the provider's Create/Get/Put calls: docs/deploy.md lists them)`), tf("output -json", "the outputs the probes address")] : []),
    ...probes.filter((p) => deploys || p.id !== "replan-drift").flatMap((p) => p.calls(stack)),
    ...(deploys ? [tf("destroy -auto-approve", "deletes every resource it created")] : []),
  ];
}

/** Runs the probes against one session, each to its end or its first error (kept as the answer's error). */
export async function runProbes(session: TargetSession, stack: ProbeStack, probes: readonly Probe[], runId: string, note: (line: string) => void, clock?: VerifyClock, signal?: AbortSignal): Promise<AnswerSet> {
  assertProbeOutputs(session.outputs, stack);
  const clients = probeClients(session.region, session.endpoints, session.local);
  const answers: ProbeAnswer[] = [];
  try {
    for (const probe of probes) {
      signal?.throwIfAborted();
      note(`${session.label}: ${probe.id}…`);
      const wait = session.alarmWait ?? ((ms: number) => (clock ?? session.clock).sleep(ms));
      const alarms = alarmReader(clients.cloudwatch, wait);
      const context = { clients, alarms, stack, outputs: session.outputs, runId, clock: clock ?? session.clock, replan: () => session.replan(), note, signal };
      try {
        const { facts, failures } = await probe.run(context);
        answers.push({ probe: probe.id, facts, ...(failures?.length ? { failures } : {}) });
      } catch (error) {
        answers.push({ probe: probe.id, facts: [], error: `${(error as Error).name}: ${(error as Error).message}` });
      }
    }
  } finally {
    clients.destroy();
  }
  return { target: session.local ? "local" : "aws", takenAt: new Date().toISOString(), region: session.region, namePrefix: stack.config.namePrefix, answers };
}

/** A session opened, used and closed (destroyed) whatever the probes do. */
export async function withSession<T>(open: () => Promise<TargetSession>, use: (session: TargetSession) => Promise<T>): Promise<T> {
  const session = await open();
  try {
    return await use(session);
  } finally {
    await session.close();
  }
}

/** 0: no difference and no failed check; 1: a difference, a failed check or a probe that did not finish. */
export function exitCodeOf(comparison: Comparison): number {
  const failed = comparison.probes.some((p) => p.failures.length > 0 || p.errors.length > 0);
  return failed || comparison.differences.length > 0 ? 1 : 0;
}
