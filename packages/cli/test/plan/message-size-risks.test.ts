/**
 * The plan review flags a queue whose maximum message size falls in place (an upgrade from 0.2's 120 KiB default to
 * 6 KiB): what the queue accepted before, and its DLQ holds, could no longer come back through it.
 */
import { sourceQueueMaxBytes } from "@effectively-once/contract";
import { buildReview } from "../../src/terraform/review/build";
import { ActionBasis, RiskKind, Severity, type ResourceFacts, type RiskFlag } from "../../src/terraform/review/types";
import { DLQ, QUEUE, plan, queue, update } from "./support/plan-fixtures";

const OLD = sourceQueueMaxBytes(120 * 1024);
const sized = (risks: readonly RiskFlag[]) => risks.filter((r) => r.kind === RiskKind.MessageSizeReduced);
const NEW = sourceQueueMaxBytes(6 * 1024);

describe("Rule: a queue's maximum message size falls", () => {
  it("flags the source queue's shrink as high risk with both figures, the stranded DLQ copies, --direct and the upgrade note", () => {
    const { risks } = buildReview(plan([update(QUEUE, queue({ max_message_size: OLD }), queue({ max_message_size: NEW }))]), { basis: ActionBasis.RealState });
    expect(risks).toHaveLength(1);
    expect(risks[0]).toMatchObject({ kind: RiskKind.MessageSizeReduced, severity: Severity.High, address: QUEUE, basis: "terraform" });
    expect(risks[0].message).toContain("falls from 122,917 bytes (120.0 KiB) to 6,181 bytes (6.0 KiB)");
    expect(risks[0].message).toContain("from its DLQ");
    expect(risks[0].message).toContain("`pipeline-ops dlq redrive --direct`");
    expect(risks[0].message).toContain("docs/upgrading.md");
  });

  it("reads an unset max_message_size as SQS's default 262,144", () => {
    const { risks } = buildReview(plan([update(QUEUE, queue({ max_message_size: null }), queue({ max_message_size: NEW }))]), { basis: ActionBasis.RealState });
    expect(risks.map((r) => r.kind)).toEqual([RiskKind.MessageSizeReduced]);
    expect(risks[0].message).toContain("from 262,144 bytes");
  });

  it("stays silent when the size grows or stays, and names no DLQ for a queue without redrive", () => {
    const grown = buildReview(plan([update(QUEUE, queue({ max_message_size: NEW }), queue({ max_message_size: OLD })), update(DLQ, queue({ name: "p-dlq", redrive_policy: null, max_message_size: 262_144 }), queue({ name: "p-dlq", redrive_policy: null, max_message_size: 262_144, visibility_timeout_seconds: 30 }))]), { basis: ActionBasis.RealState });
    expect(sized(grown.risks)).toEqual([]);
    const dlq = buildReview(plan([update(DLQ, queue({ name: "p-dlq", redrive_policy: null, max_message_size: 262_144 }), queue({ name: "p-dlq", redrive_policy: null, max_message_size: 1024 }))]), { basis: ActionBasis.RealState });
    expect(sized(dlq.risks)).toHaveLength(1);
    expect(sized(dlq.risks)[0].message).not.toContain("from its DLQ");
  });

  it("flags it offline against a baseline configuration (no state: basis configuration)", () => {
    const baseline = buildReview(plan([{ address: QUEUE, actions: ["create"], after: queue({ max_message_size: OLD }) }]), { basis: ActionBasis.EmptyState }).resources as ResourceFacts[];
    const { risks } = buildReview(plan([{ address: QUEUE, actions: ["create"], after: queue({ max_message_size: NEW }) }]), { basis: ActionBasis.EmptyState, baseline: { label: "0.2", resources: baseline } });
    expect(risks).toEqual([expect.objectContaining({ kind: RiskKind.MessageSizeReduced, basis: "configuration" })]);
  });
});
