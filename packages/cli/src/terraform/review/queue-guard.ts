import { queueGuardOf } from "@effectively-once/contract";
import { parseTemplate, type ResourceReference } from "@effectively-once/local-cloud/terraform-json";
import { PlanAction } from "../plan-json";
import { readers, type PlannedResource, type ValueReader } from "./planned";
import { RiskKind, Severity, type RiskFlag } from "./types";

/**
 * Whether the plan's DLQs refuse SQS's own actions that bypass `pipeline-ops dlq redrive`: a native message move (the
 * console's "Start DLQ redrive", StartMessageMoveTask) and a purge. A DLQ is a queue another queue's redrive policy
 * targets; its policy is an `aws_sqs_queue_policy` whose `queue_url` is that queue, or the queue's own `policy`. The
 * policy is read with the contract's rule (packages/contract/src/queue-guard.ts), the one the CLI and the simulation use.
 */

type Side = "before" | "after";

/** The text of an attribute: the configuration's template (references kept as `${…}`), else the known value. */
export function text(r: ValueReader, attribute: string): string | undefined {
  const known = r.raw([attribute]);
  return r.template([attribute]) ?? (typeof known === "string" ? known : undefined);
}

/** The queue a URL or ARN names: the referenced resource's address, else the queue whose name ends it. */
export function queueNamed(value: string | undefined, queues: ReadonlyMap<string, string>, separator: "/" | ":"): string | undefined {
  if (value === undefined) return undefined;
  if (value.includes("${")) {
    const refs = parseTemplate(value).flatMap((p) => ("ref" in p ? [(p as { ref: ResourceReference }).ref] : []));
    return refs.find((ref) => ref.type === "aws_sqs_queue")?.address;
  }
  const name = value.slice(value.lastIndexOf(separator) + 1);
  return [...queues].find(([, n]) => n === name)?.[0];
}

interface DlqGuard {
  readonly address: string;
  readonly name: string;
  readonly nativeMoves: boolean;
  readonly purge: boolean;
}

/** Each DLQ of one side of the plan, with whether its policy refuses native moves and purges. */
function dlqGuards(planned: readonly PlannedResource[], side: Side, label: (ref: ResourceReference) => string): DlqGuard[] {
  const present = planned.filter((r) => r[side] !== null);
  const read = (r: PlannedResource) => readers(r, label)[side] as ValueReader;
  const queues = new Map(present.filter((r) => r.type === "aws_sqs_queue").map((r) => [r.address, String(read(r).raw(["name"]) ?? r.address)]));
  const dlqs = new Set<string>();
  for (const r of present.filter((x) => x.type === "aws_sqs_queue")) {
    const redrive = text(read(r), "redrive_policy");
    if (!redrive) continue;
    try {
      const target = (JSON.parse(redrive) as { deadLetterTargetArn?: unknown }).deadLetterTargetArn;
      const dlq = queueNamed(typeof target === "string" ? target : undefined, queues, ":");
      if (dlq) dlqs.add(dlq);
    } catch {
      // An unreadable redrive policy names no DLQ here; the settings section shows it as it is.
    }
  }
  const policies = queuePolicySources(planned, side, label);
  return [...dlqs].map((address) => {
    // Each source alone: only one is in force on AWS, and Terraform writes them in no fixed order, so the queue is
    // guarded only when every source refuses (queue-policy-sources.ts flags the second source itself).
    const guards = (policies.get(address) ?? []).map((p) => queueGuardOf(p.policy));
    const every = (refused: (g: (typeof guards)[number]) => boolean) => guards.length > 0 && guards.every(refused);
    return { address, name: queues.get(address) ?? address, nativeMoves: every((g) => g.nativeMoves.refused), purge: every((g) => g.purge.refused) };
  });
}

/** One writer of a queue's `Policy`: an `aws_sqs_queue_policy`, or the queue's own `policy` argument. */
export interface PolicySource {
  /** The resource that writes it. */
  readonly address: string;
  /** Its text (a template when built from references); "" when the planned value is unknown and has no template. */
  readonly policy: string;
}

/**
 * Every source of each queue's policy on one side of the plan, by queue address. The queue's own `policy` counts on
 * the planned side only when the configuration sets it: otherwise its planned value is the refreshed one, whatever
 * another resource then writes. On the state side it is the live attribute, as is every policy resource's.
 */
export function queuePolicySources(planned: readonly PlannedResource[], side: Side, label: (ref: ResourceReference) => string): Map<string, PolicySource[]> {
  const present = planned.filter((r) => r[side] !== null);
  const read = (r: PlannedResource) => readers(r, label)[side] as ValueReader;
  const queues = new Map(present.filter((r) => r.type === "aws_sqs_queue").map((r) => [r.address, String(read(r).raw(["name"]) ?? r.address)]));
  const sources = new Map<string, PolicySource[]>();
  const attach = (queue: string | undefined, source: PolicySource) => {
    if (queue) sources.set(queue, [...(sources.get(queue) ?? []), source]);
  };
  for (const r of present) {
    if (r.type === "aws_sqs_queue_policy") attach(queueNamed(text(read(r), "queue_url"), queues, "/"), { address: r.address, policy: text(read(r), "policy") ?? "" });
    if (r.type !== "aws_sqs_queue") continue;
    const configured = side === "before" || r.expressions?.policy !== undefined;
    const policy = text(read(r), "policy");
    if (configured && policy) attach(r.address, { address: r.address, policy });
  }
  return sources;
}

/**
 * Flags each DLQ the plan leaves open to a native move (high: the guarantee no longer covers the DLQ's messages;
 * medium when the state already allowed it, so the plan loosens nothing) or to a purge (medium). With no before side
 * (an offline plan on an empty state) the plan is judged on its own.
 */
export function queueGuardRisks(planned: readonly PlannedResource[], label: (ref: ResourceReference) => string): RiskFlag[] {
  const hasBefore = planned.some((r) => r.before !== null && r.action !== PlanAction.Create);
  const before = new Map(dlqGuards(planned, "before", label).map((g) => [g.address, g]));
  const flags: RiskFlag[] = [];
  for (const g of dlqGuards(planned, "after", label)) {
    const was = hasBefore ? before.get(g.address) : undefined;
    const basis = "terraform" as const;
    if (!g.nativeMoves) {
      const already = was !== undefined && !was.nativeMoves;
      flags.push({
        kind: RiskKind.DlqNativeMovesAllowed,
        severity: already ? Severity.Medium : Severity.High,
        address: g.address,
        basis,
        message:
          `NATIVE DLQ REDRIVE ${already ? "STILL " : ""}ALLOWED: no policy of ${g.name} denies sqs:StartMessageMoveTask to every principal (a missing or removed aws_sqs_queue_policy, or one that allows it), so the SQS console's "Start DLQ redrive" can move its messages past every check of \`pipeline-ops dlq redrive\`: a moved message gets a new id, enqueue time and retention, and can be applied twice, applied with a conflicting payload, or dropped by the pipe's filter. ` +
          "Keep the construct's default (allowUnguardedDlqMoves: false), or accept that the guarantee does not cover such moves.",
      });
    }
    if (!g.purge) {
      flags.push({
        kind: RiskKind.DlqPurgeAllowed,
        severity: Severity.Medium,
        address: g.address,
        basis,
        message: `DLQ PURGE ALLOWED: no policy of ${g.name} denies sqs:PurgeQueue to every principal, so a purge deletes every quarantined message and its reason (allowQueuePurge, or a removed policy).`,
      });
    }
  }
  return flags;
}
