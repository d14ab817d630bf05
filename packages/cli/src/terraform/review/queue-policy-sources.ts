import { wildcardMatches } from "@effectively-once/contract";
import type { ResourceReference } from "@effectively-once/local-cloud/terraform-json";
import { PlanAction } from "../plan-json";
import { readers, type PlannedResource } from "./planned";
import { queuePolicySources, text, type PolicySource } from "./queue-guard";
import { ActionBasis, RiskKind, Severity, type ResourceFacts, type RiskFlag } from "./types";

/**
 * What a plan does to the queues' one `Policy` attribute each. SQS stores a single policy per queue and
 * `aws_sqs_queue_policy` (or the queue's own `policy`) writes it whole, so:
 * - two writers on one queue overwrite each other, in no fixed order (hashicorp/terraform#12003): high;
 * - online, a write that leaves out a statement of the refreshed live policy removes it (a producer's grant set in
 *   the console, say), and SNS, EventBridge and S3 then drop their deliveries: high, naming each statement;
 * - offline the live attribute is unknown, so a policy created for a queue the baseline already has may remove
 *   statements set outside Terraform: high, saying so.
 */

const KEEP =
  "Declare every grant the queue needs in the construct's `queueAccess` prop (producers: SNS topics, EventBridge rules, S3 buckets, accounts and roles; sourceQueueStatements / deadLetterQueueStatements for any other), so the one policy carries them beside the construct's Deny statements (docs/upgrading.md)";

const entriesOf = (value: unknown): Map<string, unknown> => (value !== null && typeof value === "object" && !Array.isArray(value) ? new Map(Object.entries(value)) : new Map());
const listOf = (value: unknown): unknown[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

/** The statements of a policy text; none when it is empty or not JSON. */
function statementsOf(policy: string | undefined): unknown[] {
  if (!policy) return [];
  try {
    return listOf(entriesOf(JSON.parse(policy)).get("Statement"));
  } catch {
    return [];
  }
}

/** JSON with sorted keys and one-element lists as their element, so AWS's normalised form equals what was written. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return value.length === 1 ? canonical(value[0]) : `[${value.map(canonical).sort().join(",")}]`;
  if (value !== null && typeof value === "object") {
    return `{${[...entriesOf(value)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** A statement's identity: its Sid, else what it grants (Resource aside: it is the queue either way, maybe as a reference). */
function identity(statement: unknown): string {
  const s = entriesOf(statement);
  const sid = s.get("Sid");
  if (typeof sid === "string" && sid !== "") return `sid:${sid}`;
  return `grant:${canonical(["Effect", "Principal", "NotPrincipal", "Action", "NotAction", "Condition"].map((k) => [k, s.get(k) ?? null]))}`;
}

/** The condition keys a declared producer's statement carries (queue-access.ts): they narrow the grant to the same sender. */
const SOURCE_KEYS = new Set(["aws:sourcearn", "aws:sourceaccount"]);

/** The values a statement's conditions give one key, whatever the operator. */
function conditionValues(statement: Map<string, unknown>, key: string): unknown[] {
  return [...entriesOf(statement.get("Condition")).values()].flatMap((block) => [...entriesOf(block)].filter(([k]) => k.toLowerCase() === key).flatMap(([, v]) => listOf(v)));
}

/**
 * Whether `kept` still grants what the live Allow `live` granted: the same principal, every action, and (when it
 * names sources) every source the live one named, with no condition beyond the source keys. So declaring a console
 * grant through `queueAccess` (another Sid, and aws:SourceAccount added) counts as keeping it.
 */
function covers(kept: unknown, live: unknown): boolean {
  const k = entriesOf(kept);
  const l = entriesOf(live);
  if (k.get("Effect") !== "Allow" || l.get("Effect") !== "Allow" || l.has("NotAction") || l.has("NotPrincipal")) return false;
  if (canonical(k.get("Principal")) !== canonical(l.get("Principal"))) return false;
  const actions = listOf(k.get("Action")).filter((a): a is string => typeof a === "string");
  if (!listOf(l.get("Action")).every((a) => typeof a === "string" && actions.some((pattern) => wildcardMatches(pattern, a)))) return false;
  if ([...entriesOf(k.get("Condition")).values()].some((block) => [...entriesOf(block).keys()].some((key) => !SOURCE_KEYS.has(key.toLowerCase())))) return false;
  const sources = conditionValues(k, "aws:sourcearn");
  const liveSources = conditionValues(l, "aws:sourcearn");
  return sources.length === 0 || (liveSources.length > 0 && liveSources.every((arn) => sources.includes(arn)));
}

/** One line a reviewer recognises: Sid, effect, principal, actions and the source ARN when there is one. */
function describe(statement: unknown): string {
  const s = entriesOf(statement);
  const sid = s.get("Sid");
  const principal = s.get("Principal");
  const who = principal === "*" ? "*" : [...entriesOf(principal)].map(([k, v]) => `${k} ${listOf(v).join(", ")}`).join("; ");
  const source = [...entriesOf(s.get("Condition")).values()].flatMap((block) => listOf(entriesOf(block).get("aws:SourceArn")));
  return `${typeof sid === "string" && sid ? `"${sid}"` : "(no Sid)"}: ${String(s.get("Effect"))} ${who || "?"} ${listOf(s.get("Action")).join(", ")}${source.length > 0 ? ` from ${source.join(", ")}` : ""}`;
}

/** The queue's AWS name, for messages. */
function nameOf(planned: readonly PlannedResource[], address: string): string {
  const r = planned.find((x) => x.address === address);
  const name = r?.after?.name ?? r?.before?.name;
  return typeof name === "string" ? name : address;
}

function multipleSources(planned: readonly PlannedResource[], label: (ref: ResourceReference) => string): RiskFlag[] {
  return [...queuePolicySources(planned, "after", label)].flatMap(([queue, sources]): RiskFlag[] => {
    if (sources.length < 2) return [];
    const names = sources.map((s) => (s.address === queue ? `${queue}'s own \`policy\`` : s.address)).join(", ");
    return [{
      kind: RiskKind.QueuePolicySources,
      severity: Severity.High,
      address: queue,
      basis: "terraform",
      message:
        `QUEUE POLICY WRITTEN TWICE: ${nameOf(planned, queue)} has ${sources.length} policy sources (${names}). SQS keeps one Policy per queue and each source writes it whole, in no fixed order, so only one is in force after any apply and the others' statements (the construct's Deny of native redrive and purge, or a producer's grant) come and go with each deploy. ` +
        `Keep one: move the other statements into the construct's \`queueAccess\` (sourceQueueStatements / deadLetterQueueStatements) and delete the extra resource or argument.`,
    }];
  });
}

/** Online: each create or update of a queue's policy that leaves out a statement of the refreshed live one. */
function droppedStatements(planned: readonly PlannedResource[], label: (ref: ResourceReference) => string): RiskFlag[] {
  const live = queuePolicySources(planned, "before", label);
  const flags: RiskFlag[] = [];
  for (const [queue, sources] of queuePolicySources(planned, "after", label)) {
    for (const source of sources) {
      const r = planned.find((x) => x.address === source.address);
      if (!r || (r.action !== PlanAction.Create && r.action !== PlanAction.Update && r.action !== PlanAction.Replace)) continue;
      // The live policy: this resource's refreshed value, else whatever the queue holds now (every source reads the one attribute).
      const own = readers(r, label).before;
      const before = own ? text(own, "policy") : (live.get(queue) ?? []).map((s: PolicySource) => s.policy).find((p) => p !== "");
      const written = statementsOf(source.policy);
      const kept = new Set(written.map(identity));
      const lost = statementsOf(before).filter((s) => !kept.has(identity(s)) && !written.some((w) => covers(w, s)));
      if (lost.length === 0) continue;
      flags.push({
        kind: RiskKind.QueuePolicyDropsStatements,
        severity: Severity.High,
        address: source.address,
        basis: "terraform",
        message:
          `QUEUE POLICY DROPS LIVE STATEMENTS: ${source.address} writes ${nameOf(planned, queue)}'s whole Policy and leaves out ${lost.length} statement${lost.length === 1 ? "" : "s"} of the live one: ${lost.map(describe).join("; ")}. ` +
          `A producer that sends through such a grant (SNS, EventBridge, S3, another account) is refused after the apply; SNS drops the delivery unless its subscription has a dead-letter queue, so the message never reaches the pipeline. ${KEEP}.`,
      });
    }
  }
  return flags;
}

/** Offline, with a baseline: each policy created for a queue the baseline already has. */
function createdOverLive(planned: readonly PlannedResource[], label: (ref: ResourceReference) => string, baseline: readonly ResourceFacts[]): RiskFlag[] {
  const before = new Set(baseline.filter((f) => f.action !== PlanAction.Destroy).map((f) => f.address));
  const flags: RiskFlag[] = [];
  for (const [queue, sources] of queuePolicySources(planned, "after", label)) {
    if (!before.has(queue)) continue;
    for (const source of sources) {
      // A queue's own policy argument is in the baseline's configuration too; a policy resource is new if the baseline lacks it.
      if (source.address === queue || before.has(source.address)) continue;
      flags.push({
        kind: RiskKind.QueuePolicyReplacesLive,
        severity: Severity.High,
        address: source.address,
        basis: "configuration",
        message:
          `QUEUE POLICY CREATED ON AN EXISTING QUEUE: ${source.address} will write ${nameOf(planned, queue)}'s whole Policy, and the queue exists already. An offline plan cannot read its live policy: any statement set outside Terraform (the console's "Subscribe to Amazon SNS topic", an EventBridge target, S3 notifications, another account's grant) will be removed, and producers relying on it can no longer send. ` +
          `Read the live policy first (\`aws sqs get-queue-attributes --attribute-names Policy\`) or run the review online. ${KEEP}.`,
      });
    }
  }
  return flags;
}

/** Every flag about the queues' policy sources. */
export function queuePolicySourceRisks(
  planned: readonly PlannedResource[],
  label: (ref: ResourceReference) => string,
  options: { readonly basis: ActionBasis; readonly baseline?: readonly ResourceFacts[] },
): RiskFlag[] {
  return [
    ...multipleSources(planned, label),
    ...(options.basis === ActionBasis.RealState ? droppedStatements(planned, label) : []),
    ...(options.basis !== ActionBasis.RealState && options.baseline ? createdOverLive(planned, label, options.baseline) : []),
  ];
}
