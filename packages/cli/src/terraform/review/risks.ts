import { keyDerivationChanges, type KeyDerivation } from "@effectively-once/contract";
import { PlanAction } from "../plan-json";
import { accountWideRenameRisk } from "./account-wide-risks";
import { KNOWN_AFTER_APPLY } from "./planned";
import { messageSizeRisks } from "./message-size-risks";
import { secondLayerRisks } from "./second-layer-risks";
import { RiskKind, Severity, StatementSource, type IamStatement, type ResourceSettings, type RiskFlag } from "./types";

/** What the review knows about one side (before or after) of a resource. */
export interface FactsSide {
  readonly name: string | null;
  readonly settings?: ResourceSettings;
  readonly statements?: readonly IamStatement[];
  readonly policyUnknown?: boolean;
}

/** A resource going from `before` to `after`: from a plan with prior state, or from comparing two configurations. */
export interface Transition {
  readonly address: string;
  readonly type: string;
  readonly action: PlanAction;
  readonly basis: RiskFlag["basis"];
  readonly before: FactsSide | null;
  readonly after: FactsSide | null;
  readonly replacePaths?: readonly string[];
}

const STATEFUL_TYPES = new Set(["aws_dynamodb_table", "aws_sqs_queue"]);

/** Which data a table or queue of this pipeline holds, from its name (the construct names them `<prefix>-ledger`, `-dlq`, ...). */
function dataAtRisk(type: string, name: string): string {
  const n = name.toLowerCase();
  if (type === "aws_dynamodb_table") {
    if (n.includes("ledger")) {
      return "the ledger loses every claim: messages already applied could be applied again (a redelivery or a producer retry inside the retention window is no longer recognised as a duplicate, and in-flight claims vanish)";
    }
    if (n.includes("idempotency")) {
      return (
        "the Powertools idempotency table loses every record: the function's own duplicate check (the second layer) forgets every completed key, so nothing stops a repeated call that slips past the ledger " +
        "(a second-layer key reset: keep the table; if it must go, deploy when no key can come back within one retention, docs/upgrading.md)"
      );
    }
    if (n.includes("effects") || n.includes("downstream")) {
      return "the downstream effects table loses every recorded side effect and call count";
    }
    return `every item in table ${name} is lost`;
  }
  if (n.includes("dlq") || n.includes("dead")) {
    return "the DLQ loses every quarantined message and its reason: invalid, conflicting, rejected and retries-exhausted messages can no longer be inspected or redriven";
  }
  if (n.includes("queue") || n.includes("source")) {
    return "the source queue is deleted with every message waiting or in flight: those messages are never processed, and producers must switch to the new queue URL";
  }
  return `every message in queue ${name} is lost`;
}

function statefulRisk(t: Transition): RiskFlag | undefined {
  if (!STATEFUL_TYPES.has(t.type) || (t.action !== PlanAction.Replace && t.action !== PlanAction.Destroy)) return undefined;
  const name = t.before?.name ?? t.after?.name ?? t.address;
  const verb = t.action === PlanAction.Replace ? "is replaced (deleted, and a new empty one created)" : "is destroyed";
  const why = t.replacePaths && t.replacePaths.length > 0 ? ` because ${t.replacePaths.map((p) => `\`${p}\``).join(", ")} cannot change in place` : "";
  const before = t.before?.settings;
  const guarded =
    before?.kind === "table" && before.deletionProtection === true
      ? " Deletion protection is on, so the apply will fail at the delete; turning it off to get past that is exactly this data loss."
      : "";
  return {
    kind: t.action === PlanAction.Replace ? RiskKind.StatefulReplace : RiskKind.StatefulDestroy,
    severity: Severity.High,
    address: t.address,
    basis: t.basis,
    message: `DATA LOSS: ${name} ${verb}${why}: ${dataAtRisk(t.type, name)}.${guarded}`,
  };
}

const allowed = (statements: readonly IamStatement[], source?: StatementSource) =>
  statements.filter((s) => s.effect === "Allow" && (source === undefined ? s.source !== StatementSource.Trust : s.source === source));

/** Each wildcard grant (an action pattern, or one action on `*`) keyed for comparison, with how to show it. */
function wildcardGrants(statements: readonly IamStatement[]): Map<string, { shown: string; required: boolean }> {
  const grants = new Map<string, { shown: string; required: boolean }>();
  for (const s of allowed(statements)) {
    for (const action of s.wildcardActions) grants.set(`action:${action}`, { shown: `\`${action}\``, required: false });
    if (s.wildcardResource) {
      for (const action of s.actions) grants.set(`resource:${action}`, { shown: `\`${action}\` on \`*\``, required: s.requiredWildcard !== null });
    }
  }
  return grants;
}

function iamRisks(t: Transition, baselineKnown: boolean): RiskFlag[] {
  const after = t.after?.statements;
  if (!after || t.after?.policyUnknown) return [];
  // A brand-new policy only loosens anything when there is a baseline; on an empty state everything is new.
  const before = t.before?.statements ?? (baselineKnown && t.action === PlanAction.Create ? [] : undefined);
  if (!before || t.before?.policyUnknown) return [];
  const role = after[0]?.role ?? t.address;
  const flags: RiskFlag[] = [];
  const base = { address: t.address, basis: t.basis };

  const oldActions = new Set(allowed(before).flatMap((s) => s.actions));
  const newActions = [...new Set(allowed(after).flatMap((s) => s.actions))].filter((a) => !oldActions.has(a));
  if (newActions.length > 0) {
    flags.push({ ...base, kind: RiskKind.IamNewAction, severity: Severity.Medium, message: `IAM loosened: ${role} gains ${newActions.map((a) => `\`${a}\``).join(", ")}.` });
  }
  const oldWildcards = wildcardGrants(before);
  const newWildcards = [...wildcardGrants(after).entries()].filter(([key]) => !oldWildcards.has(key)).map(([, grant]) => grant);
  if (newWildcards.length > 0) {
    const required = newWildcards.every((g) => g.required);
    flags.push({
      ...base,
      kind: RiskKind.IamNewWildcard,
      severity: required ? Severity.Medium : Severity.High,
      message: `IAM wildcard added for ${role}: ${newWildcards.map((g) => g.shown).join(", ")}${required ? " (AWS requires `*` for these actions)" : ""}.`,
    });
  }
  const oldPrincipals = new Set(allowed(before, StatementSource.Trust).flatMap((s) => s.principals));
  const newPrincipals = [...new Set(allowed(after, StatementSource.Trust).flatMap((s) => s.principals))].filter((p) => !oldPrincipals.has(p));
  if (newPrincipals.length > 0) {
    const open = newPrincipals.some((p) => p === "*" || p.endsWith(": *"));
    flags.push({
      ...base,
      kind: RiskKind.IamNewPrincipal,
      severity: open ? Severity.High : Severity.Medium,
      message: `IAM trust loosened: ${role} can now be assumed by ${newPrincipals.map((p) => `\`${p}\``).join(", ")}.`,
    });
  }
  return flags;
}

const isKnown = (value: unknown) => value !== KNOWN_AFTER_APPLY && value !== undefined;

function settingRisks(t: Transition): RiskFlag[] {
  const before = t.before?.settings;
  const after = t.after?.settings;
  if (!before || !after || before.kind !== after.kind) return [];
  const name = t.after?.name ?? t.before?.name ?? t.address;
  const base = { address: t.address, basis: t.basis };
  const flags: RiskFlag[] = [];
  if (before.kind === "table" && after.kind === "table") {
    if (before.ttlAttribute !== null && after.ttlAttribute === null) {
      flags.push({ ...base, kind: RiskKind.TtlDisabled, severity: Severity.Medium, message: `TTL disabled on ${name}: items are never deleted, so the table grows without bound (the ledger's claim condition still checks expiry, so correctness holds, but storage and cost grow).` });
    } else if (typeof before.ttlAttribute === "string" && typeof after.ttlAttribute === "string" && isKnown(after.ttlAttribute) && before.ttlAttribute !== after.ttlAttribute) {
      flags.push({ ...base, kind: RiskKind.TtlAttributeChanged, severity: Severity.Medium, message: `TTL attribute of ${name} changes from \`${before.ttlAttribute}\` to \`${after.ttlAttribute}\`: items written with \`${before.ttlAttribute}\` never expire.` });
    }
    if (before.pointInTimeRecovery === true && after.pointInTimeRecovery === false) {
      flags.push({ ...base, kind: RiskKind.PitrDisabled, severity: Severity.High, message: `Point-in-time recovery turned off on ${name}: its continuous backups are deleted and an accidental delete or overwrite can no longer be undone.` });
    }
    if (before.deletionProtection === true && after.deletionProtection === false) {
      flags.push({ ...base, kind: RiskKind.DeletionProtectionOff, severity: Severity.High, message: `Deletion protection turned off on ${name}: a later destroy or replacement will delete it and its data without a stop.` });
    }
  }
  if (before.kind === "queue" && after.kind === "queue") {
    if (before.encryption !== "off" && isKnown(before.encryption) && after.encryption === "off") {
      flags.push({ ...base, kind: RiskKind.EncryptionOff, severity: Severity.Medium, message: `Server-side encryption turned off on ${name}: message bodies are stored unencrypted.` });
    }
    if (before.redriveTarget !== null && after.redriveTarget === null) {
      flags.push({ ...base, kind: RiskKind.RedriveRemoved, severity: Severity.High, message: `Redrive removed from ${name}: a message that keeps failing is retried until its retention ends and is then deleted, never reaching the DLQ.` });
    }
  }
  if (before.kind === "function" && after.kind === "function" && after.idempotencyTable !== null && (before.batchConcurrency === null) !== (after.batchConcurrency === null)) {
    const on = after.batchConcurrency !== null;
    flags.push({
      ...base,
      kind: RiskKind.InvocationShapeChange,
      severity: Severity.Medium,
      message:
        `${name}: the workflow ${on ? "starts" : "stops"} invoking it once per batch (\`batchInvocation\`), so its event changes shape. ` +
        (on
          ? "Its code must be a release that accepts batch events (deploy that first, with `batchInvocation: false`: standard mode's default is on); an older one refuses each batch as a whole and every record is invoked alone: safe, one request per record."
          : "Roll the function's code back only after this deploy: an older function behind a workflow that still sends batches refuses them, and every record is invoked alone.") +
        " docs/upgrading.md, \"One invocation per batch\".",
    });
  }
  if (before.kind === "stateMachine" && after.kind === "stateMachine" && isKnown(after.type) && before.type !== after.type) {
    flags.push({ ...base, kind: RiskKind.StateMachineTypeChange, severity: Severity.High, message: `State machine ${name} changes type ${before.type} → ${after.type}: the state machine is replaced, and a pipe can wait for the result (REQUEST_RESPONSE) of an EXPRESS workflow only.` });
  }
  if (before.kind === "pipe" && after.kind === "pipe" && isKnown(after.invocationType) && before.invocationType !== after.invocationType) {
    const lossy = after.invocationType === "FIRE_AND_FORGET";
    flags.push({
      ...base,
      kind: RiskKind.InvocationTypeChange,
      severity: lossy ? Severity.High : Severity.Medium,
      message: `Pipe ${name} changes invocation type ${before.invocationType} → ${after.invocationType}${lossy ? ": the pipe deletes every message as soon as the workflow starts, so failed records are neither retried nor dead-lettered" : ""}.`,
    });
  }
  return flags;
}

function parsedRecord(value: unknown): KeyDerivation | undefined {
  if (typeof value !== "string") return undefined;
  try {
    return JSON.parse(value) as KeyDerivation;
  } catch {
    return undefined;
  }
}

/**
 * A new key derivation (operation, key expression, payload fields, field rules, canonical form): every message
 * already applied gets a key neither layer remembers. A side without a record (a stack deployed before records
 * existed) cannot be compared, so it is not flagged.
 */
function keyDerivationRisk(t: Transition): RiskFlag | undefined {
  const before = t.before?.settings;
  const after = t.after?.settings;
  if (before?.kind !== "stateMachine" || after?.kind !== "stateMachine") return undefined;
  const [old, now] = [parsedRecord(before.keyDerivation), parsedRecord(after.keyDerivation)];
  if (!old || !now) return undefined;
  const changes = keyDerivationChanges(old, now);
  if (changes.length === 0) return undefined;
  const name = t.after?.name ?? t.before?.name ?? t.address;
  const tick = (value: string) => `\`${value.replace(/`/g, "'")}\``;
  const listed = changes.map((c) => `${c.part} ${tick(c.before)} → ${tick(c.after)}`).join("; ");
  return {
    kind: RiskKind.KeyDerivationChange,
    severity: Severity.High,
    address: t.address,
    basis: t.basis,
    message:
      `KEYS RESET: ${name} derives keys differently: ${listed}. Every message already applied now gets a key neither the ledger nor the Powertools table remembers, so a resend of it (a redelivery, a producer's retry, a DLQ redrive) is applied again. ` +
      "Safe procedure: before deploying, drain the source queue and the DLQ (process, redrive or purge what waits there) with producers no longer resending, or, if they may still resend, wait until the ledger's retention window has passed since the last message; or keep the old derivation (revert this change, or give the new one its own pipeline and queue).",
  };
}

/**
 * Risk flags over every resource transition. `baselineKnown` says the before side is a real or seeded state
 * (so a brand-new policy is a real addition), not an empty one.
 */
export function assessRisks(transitions: readonly Transition[], options: { baselineKnown: boolean }): RiskFlag[] {
  const flags: RiskFlag[] = [];
  for (const t of transitions) {
    const stateful = statefulRisk(t);
    if (stateful) flags.push(stateful);
    const renamed = accountWideRenameRisk(t);
    if (renamed) flags.push(renamed);
    if (t.action === PlanAction.Destroy) continue;
    flags.push(...iamRisks(t, options.baselineKnown), ...settingRisks(t));
    const keys = keyDerivationRisk(t);
    if (keys) flags.push(keys);
  }
  flags.push(...secondLayerRisks(transitions), ...messageSizeRisks(transitions));
  const order = { [Severity.High]: 0, [Severity.Medium]: 1 };
  return flags.sort((a, b) => order[a.severity] - order[b.severity] || a.address.localeCompare(b.address));
}
