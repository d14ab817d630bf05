/**
 * The second layer's record ids in a plan (packages/contract/src/second-layer-ids.ts). A pipeline function
 * names its Powertools records `<IDEMPOTENCY_KEY_PREFIX>#<IDEMPOTENCY_HASH_FUNCTION digest of the key>` and still
 * honours `<IDEMPOTENCY_LEGACY_KEY_PREFIX>#<md5>` during the upgrade's transition; a function of release 0.2 or
 * earlier (no prefix variable) named them after itself, `<function_name>#<md5>`. A deploy after which the function
 * honours none of the ids its records were written with forgets every key: a second-layer key reset. A rename of
 * the function alone changes nothing any more; under release 0.2 it was exactly such a reset.
 */
import { ContractEnv } from "@effectively-once/contract";
import { legacySecondLayerIds, type SecondLayerIds } from "@effectively-once/contract";
import { PlanAction } from "../plan-json";
import type { ValueReader } from "./planned";
import { RiskKind, Severity, type FunctionSettings, type ResourceSettings, type RiskFlag, type Shown } from "./types";

/** The part of a resource transition (risks.ts) these rules read. */
interface Transition {
  readonly address: string;
  readonly type: string;
  readonly action: PlanAction;
  readonly basis: RiskFlag["basis"];
  readonly before: { readonly name: string | null; readonly settings?: ResourceSettings } | null;
  readonly after: { readonly name: string | null; readonly settings?: ResourceSettings } | null;
}

/** What `FunctionSettings.secondLayerIds` holds (as JSON). */
interface SecondLayerIdsFacts {
  /** The ids the function writes. */
  readonly own: SecondLayerIds;
  /** The earlier releases' prefix it still honours (with MD5), or null. */
  readonly legacyPrefix: string | null;
}

const variable = (name: string) => ["environment", 0, "variables", name] as const;

const text = (value: unknown): string | undefined => (typeof value === "string" && value.trim() !== "" ? value.trim() : undefined);

/** The second-layer facts of one side of an `aws_lambda_function`. */
export function secondLayerFacts(r: ValueReader): Pick<FunctionSettings, "secondLayerIds" | "idempotencyTable"> {
  const table = r.shown(variable(ContractEnv.IdempotencyTableName));
  if (table === null) return { secondLayerIds: null, idempotencyTable: null };
  const prefix = text(r.raw(variable(ContractEnv.IdempotencyKeyPrefix)));
  const name = text(r.raw(["function_name"]));
  let facts: SecondLayerIdsFacts;
  if (prefix !== undefined) {
    const hashFunction = text(r.raw(variable(ContractEnv.IdempotencyHashFunction)))?.toLowerCase() ?? "(unset)";
    facts = { own: { keyPrefix: prefix, hashFunction }, legacyPrefix: text(r.raw(variable(ContractEnv.IdempotencyLegacyKeyPrefix))) ?? null };
  } else if (name !== undefined) {
    // Release 0.2 or earlier: Powertools' defaults.
    facts = { own: legacySecondLayerIds(name), legacyPrefix: null };
  } else {
    return { secondLayerIds: null, idempotencyTable: table };
  }
  return { secondLayerIds: JSON.stringify(facts), idempotencyTable: table };
}

function factsOf(side: Transition["before"]): { facts: SecondLayerIdsFacts; table: Shown } | undefined {
  const s = side?.settings;
  if (s?.kind !== "function" || typeof s.secondLayerIds !== "string") return undefined;
  return { facts: JSON.parse(s.secondLayerIds) as SecondLayerIdsFacts, table: s.idempotencyTable };
}

const same = (a: SecondLayerIds, b: SecondLayerIds) => a.keyPrefix === b.keyPrefix && a.hashFunction === b.hashFunction;
const shownIds = (ids: SecondLayerIds) => `\`${ids.keyPrefix}#<${ids.hashFunction} of the key>\``;
const honoured = (f: SecondLayerIdsFacts): SecondLayerIds[] => [f.own, ...(f.legacyPrefix ? [legacySecondLayerIds(f.legacyPrefix)] : [])];

function risksOf(t: Transition, before: SecondLayerIdsFacts, after: SecondLayerIdsFacts): RiskFlag[] {
  const name = t.after?.name ?? t.before?.name ?? t.address;
  const base = { address: t.address, basis: t.basis };
  const kept = honoured(after);
  if (!kept.some((ids) => same(ids, before.own))) {
    const wasLegacy = same(before.own, legacySecondLayerIds(before.own.keyPrefix));
    return [
      {
        ...base,
        kind: RiskKind.SecondLayerKeyReset,
        severity: Severity.High,
        message:
          `SECOND-LAYER KEYS RESET: ${name} wrote its Powertools records as ${shownIds(before.own)} and will honour only ${kept.map(shownIds).join(" and ")}. ` +
          "It forgets every key applied before this deploy, so for one retention (`retentionSeconds`) a message whose key the ledger lost (a lease takeover, a failed Complete, `ledger release`) is applied again. `pipeline-ops dlq redrive` counts only the records the deployed function honours (read from its configuration), so from this deploy on it no longer counts the old ones as a key's memory and refuses, without --force, a copy older than the source queue's retention that only they vouched for. " +
          (wasLegacy
            ? `Safe procedure: let the function keep honouring the old ids for one retention: set \`function.legacyIdempotencyKeyPrefix: "${before.own.keyPrefix}"\` (docs/upgrading.md). A rename never needs a reset: this release names the records after the contract, not the function. `
            : "Safe procedure: keep the prefix and digest the records were written with (IDEMPOTENCY_KEY_PREFIX, IDEMPOTENCY_HASH_FUNCTION, set by the construct). If they must change, deploy when no key can come back within one retention: the source queue and the DLQ empty, producers no longer resending, no `ledger release` until `retentionSeconds` have passed. ") +
          "A replaced idempotency table resets the same way.",
      },
    ];
  }
  if (before.legacyPrefix && !kept.some((ids) => same(ids, legacySecondLayerIds(before.legacyPrefix as string)))) {
    return [
      {
        ...base,
        kind: RiskKind.SecondLayerLegacyDropped,
        severity: Severity.Medium,
        message:
          `${name} stops honouring the records the earlier release wrote (\`${before.legacyPrefix}#<md5 of the key>\`). Safe once \`retentionSeconds\` have passed since the upgrade to the new ids was deployed (every such record has expired); ` +
          `before that, a key applied before the upgrade and lost by the ledger would be applied again: keep \`function.legacyIdempotencyKeyPrefix: "${before.legacyPrefix}"\` (its default follows the function's name, so pin it before a rename).`,
      },
    ];
  }
  return [];
}

/**
 * Second-layer id risks over every function transition. A function whose address changed (a construct renamed)
 * is a destroy and a create: the two are compared when they write the same idempotency table.
 */
export function secondLayerRisks(transitions: readonly Transition[]): RiskFlag[] {
  const functions = transitions.filter((t) => t.type === "aws_lambda_function");
  const destroyed = functions.filter((t) => t.action === PlanAction.Destroy && t.after === null).flatMap((t) => {
    const before = factsOf(t.before);
    return before ? [{ t, before }] : [];
  });
  const flags: RiskFlag[] = [];
  for (const t of functions) {
    const after = factsOf(t.after);
    if (!after) continue;
    const before = factsOf(t.before) ?? destroyed.find((d) => t.before === null && d.before.table !== null && d.before.table === after.table)?.before;
    if (before) flags.push(...risksOf(t, before.facts, after.facts));
  }
  return flags;
}
