import { readRedriveAllow, RedrivePermission } from "@effectively-once/contract";
import type { ResourceReference } from "@effectively-once/local-cloud/terraform-json";
import { PlanAction } from "../plan-json";
import { readers, type PlannedResource, type ValueReader } from "./planned";
import { queueNamed, text } from "./queue-guard";
import { RiskKind, Severity, type RiskFlag } from "./types";

/**
 * Whether the plan keeps SQS's second move path closed (docs/guarantees.md, "paths back from the DLQ"): a source queue
 * (one whose redrive policy targets a DLQ) must refuse to be anyone's DLQ (`RedriveAllowPolicy` denyAll: an
 * `aws_sqs_queue_redrive_allow_policy` on it, or its own `redrive_allow_policy`), and its DLQ must have no redrive
 * policy of its own (`redrive_policy`, or an `aws_sqs_queue_redrive_policy`). The policy is read with the contract's
 * rule (packages/contract/src/redrive-paths.ts), the one `pipeline-ops dlq guard` and the simulation use.
 */

type Side = "before" | "after";

interface RedrivePaths {
  /** Source queue address → whether some RedriveAllowPolicy of it is denyAll. */
  readonly sourceClosed: ReadonlyMap<string, boolean>;
  /** DLQ address → the queue its own redrive policy targets (its name, or the ARN as written), when it has one. */
  readonly dlqRedrive: ReadonlyMap<string, string>;
  readonly names: ReadonlyMap<string, string>;
}

const targetOf = (redrive: string | undefined): string | undefined => {
  if (!redrive) return undefined;
  try {
    const target = (JSON.parse(redrive) as { deadLetterTargetArn?: unknown }).deadLetterTargetArn;
    return typeof target === "string" ? target : undefined;
  } catch {
    return undefined;
  }
};

function pathsOf(planned: readonly PlannedResource[], side: Side, label: (ref: ResourceReference) => string): RedrivePaths {
  const present = planned.filter((r) => r[side] !== null);
  const read = (r: PlannedResource) => readers(r, label)[side] as ValueReader;
  const names = new Map(present.filter((r) => r.type === "aws_sqs_queue").map((r) => [r.address, String(read(r).raw(["name"]) ?? r.address)]));
  // Queue address → its redrive target: the target queue's address when the plan holds it, else the text as written.
  const redrives = new Map<string, { queue?: string; written: string }>();
  const redriveOf = (address: string | undefined, policy: string | undefined) => {
    const written = targetOf(policy);
    if (address && written) redrives.set(address, { queue: queueNamed(written, names, ":"), written });
  };
  for (const r of present) {
    if (r.type === "aws_sqs_queue") redriveOf(r.address, text(read(r), "redrive_policy"));
    if (r.type === "aws_sqs_queue_redrive_policy") redriveOf(queueNamed(text(read(r), "queue_url"), names, "/"), text(read(r), "redrive_policy"));
  }
  const dlqs = new Set([...redrives.values()].flatMap((t) => (t.queue ? [t.queue] : [])));
  const allows = new Map<string, string[]>();
  const attach = (address: string | undefined, policy: string | undefined) => {
    if (address && policy) allows.set(address, [...(allows.get(address) ?? []), policy]);
  };
  for (const r of present) {
    if (r.type === "aws_sqs_queue_redrive_allow_policy") attach(queueNamed(text(read(r), "queue_url"), names, "/"), text(read(r), "redrive_allow_policy"));
    if (r.type === "aws_sqs_queue") attach(r.address, text(read(r), "redrive_allow_policy"));
  }
  // A pipeline's pair: a queue whose DLQ the plan holds (as the DLQ rule of queue-guard.ts reads it), not itself a DLQ.
  const sources = [...redrives].filter(([address, t]) => t.queue !== undefined && !dlqs.has(address)).map(([address]) => address);
  const sourceClosed = new Map(sources.map((address) => [address, (allows.get(address) ?? []).some((p) => readRedriveAllow(p)?.permission === RedrivePermission.DenyAll)]));
  const dlqRedrive = new Map([...redrives].filter(([address]) => dlqs.has(address)).map(([address, t]) => [address, t.queue ? (names.get(t.queue) ?? t.queue) : t.written]));
  return { sourceClosed, dlqRedrive, names };
}

/**
 * Flags a source queue left open to being named as a DLQ (high when the plan opens it, medium when the plan creates it
 * open; silent when the state already held it open) and a DLQ given a redrive policy of its own (high).
 */
export function redriveGuardRisks(planned: readonly PlannedResource[], label: (ref: ResourceReference) => string): RiskFlag[] {
  const hasBefore = planned.some((r) => r.before !== null && r.action !== PlanAction.Create);
  const before = hasBefore ? pathsOf(planned, "before", label) : undefined;
  const after = pathsOf(planned, "after", label);
  const flags: RiskFlag[] = [];
  for (const [address, closed] of after.sourceClosed) {
    if (closed) continue;
    // A queue the state already holds open is not the plan's doing (the upgrade from 0.2 closes it); a plan that
    // opens it, or creates it open, is.
    if (before?.sourceClosed.get(address) === false) continue;
    const opened = before?.sourceClosed.get(address) === true;
    flags.push({
      kind: RiskKind.SourceQueueRedriveAllowed,
      severity: opened ? Severity.High : Severity.Medium,
      address,
      basis: "terraform",
      message:
        `SOURCE QUEUE OPEN TO REDRIVE: no RedriveAllowPolicy of ${after.names.get(address) ?? address} is denyAll, so any queue of the account (the DLQ itself, or a temporary queue) can name it as its dead-letter queue and move quarantined copies back with their original enqueue time: past every check of \`pipeline-ops dlq redrive\`, a copy can expire on arrival unseen. ` +
        "Keep the construct's aws_sqs_queue_redrive_allow_policy on the source queue ({\"redrivePermission\":\"denyAll\"}).",
    });
  }
  for (const [address, target] of after.dlqRedrive) {
    flags.push({
      kind: RiskKind.DlqRedrivePolicy,
      severity: Severity.High,
      address,
      basis: "terraform",
      message: `DLQ REDRIVES ON ITS OWN: ${after.names.get(address) ?? address} has a redrive policy to ${target}, which moves each quarantined copy read more than maxReceiveCount times there, from where a message-move task can send it back past every check of \`pipeline-ops dlq redrive\`. Remove the DLQ's redrive policy; redrive with \`pipeline-ops dlq redrive\`.`,
    });
  }
  return flags;
}
