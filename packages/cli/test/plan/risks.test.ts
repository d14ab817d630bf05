import { buildReview } from "../../src/terraform/review/build";
import { ActionBasis, RiskKind, Severity, type RiskFlag } from "../../src/terraform/review/types";
import { DLQ, IDEMPOTENCY, LEDGER, MACHINE, PIPE, POLICY, QUEUE, ROLE, pipe, plan, queue, role, rolePolicy, stateMachine, table, update, type FixtureResource } from "./support/plan-fixtures";

function risks(resources: readonly FixtureResource[], basis: ActionBasis = ActionBasis.RealState): RiskFlag[] {
  return [...buildReview(plan(resources), { basis }).risks];
}
const kinds = (flags: readonly RiskFlag[]) => flags.map((f) => f.kind);

const LEDGER_STATEMENT = { Sid: "Ledger", Effect: "Allow", Action: ["dynamodb:PutItem", "dynamodb:GetItem"], Resource: ["arn:aws:dynamodb:us-east-1:000000000000:table/p-ledger"] };

describe("Function: assessRisks (via buildReview)", () => {
  describe("Rule: stateful replacement and destruction", () => {
    it("flags a replaced ledger as data loss, names what is lost, why, and the deletion-protection trap", () => {
      // Arrange
      const resources = [{ address: LEDGER, actions: ["delete", "create"], before: table(), after: table({ name: "q-ledger" }), replacePaths: [["name"]] }];
      // Act
      const flags = risks(resources);
      // Assert
      expect(flags).toHaveLength(1);
      expect(flags[0]).toMatchObject({ kind: RiskKind.StatefulReplace, severity: Severity.High, address: LEDGER, basis: "terraform" });
      expect(flags[0].message).toContain("the ledger loses every claim: messages already applied could be applied again");
      expect(flags[0].message).toContain("p-ledger is replaced");
      expect(flags[0].message).toContain("`name` cannot change in place");
      expect(flags[0].message).toContain("Deletion protection is on");
    });

    it("flags a destroyed DLQ with the quarantined messages it loses", () => {
      const flags = risks([{ address: DLQ, actions: ["delete"], before: queue({ name: "p-dlq", redrive_policy: null }), after: null }]);
      expect(kinds(flags)).toEqual([RiskKind.StatefulDestroy]);
      expect(flags[0].message).toContain("the DLQ loses every quarantined message");
    });

    it("names the idempotency table's and the source queue's losses", () => {
      const flags = risks([
        { address: IDEMPOTENCY, actions: ["create", "delete"], before: table({ name: "p-idempotency", deletion_protection_enabled: null }), after: table({ name: "p-idempotency", hash_key: "key" }) },
        { address: QUEUE, actions: ["delete", "create"], before: queue(), after: queue({ fifo_queue: true }) },
      ]);
      expect(flags.map((f) => f.message).join("\n")).toMatch(/Powertools idempotency table loses every record[\s\S]*source queue is deleted with every message/);
      expect(flags[0].message).not.toContain("Deletion protection is on");
    });

    it("stays silent when a table or queue is only updated in place, or a stateless resource is replaced", () => {
      const flags = risks([
        update(LEDGER, table(), table({ billing_mode: "PROVISIONED" })),
        update(QUEUE, queue(), queue({ visibility_timeout_seconds: 400 })),
        { address: MACHINE, actions: ["delete", "create"], before: stateMachine(), after: stateMachine({ name: "q-workflow" }) },
      ]);
      expect(flags).toEqual([]);
    });
  });

  describe("Rule: IAM loosening", () => {
    it("flags new actions on an existing policy", () => {
      const before = rolePolicy([LEDGER_STATEMENT]);
      const after = rolePolicy([{ ...LEDGER_STATEMENT, Action: [...LEDGER_STATEMENT.Action, "dynamodb:Scan"] }]);
      const flags = risks([update(POLICY, before, after)]);
      expect(kinds(flags)).toEqual([RiskKind.IamNewAction]);
      expect(flags[0].message).toContain("`dynamodb:Scan`");
      expect(flags[0].message).toContain("p-workflow-role");
    });

    it("flags a new wildcard resource as high, and a new AWS-required one (X-Ray) as medium with the reason", () => {
      const before = rolePolicy([LEDGER_STATEMENT]);
      const loose = risks([update(POLICY, before, rolePolicy([{ ...LEDGER_STATEMENT, Resource: "*" }]))]);
      expect(loose.find((f) => f.kind === RiskKind.IamNewWildcard)).toMatchObject({ severity: Severity.High });
      const tracing = risks([update(POLICY, before, rolePolicy([LEDGER_STATEMENT, { Sid: "Tracing", Effect: "Allow", Action: ["xray:PutTraceSegments"], Resource: ["*"] }]))]);
      const wildcard = tracing.find((f) => f.kind === RiskKind.IamNewWildcard);
      expect(wildcard).toMatchObject({ severity: Severity.Medium });
      expect(wildcard?.message).toContain("AWS requires `*`");
    });

    it("flags a new action wildcard such as dynamodb:*", () => {
      const flags = risks([update(POLICY, rolePolicy([LEDGER_STATEMENT]), rolePolicy([{ ...LEDGER_STATEMENT, Action: "dynamodb:*" }]))]);
      expect(kinds(flags)).toEqual(expect.arrayContaining([RiskKind.IamNewWildcard, RiskKind.IamNewAction]));
      expect(flags.find((f) => f.kind === RiskKind.IamNewWildcard)?.message).toContain("`dynamodb:*`");
    });

    it("flags a role that a new principal can assume", () => {
      const flags = risks([update(ROLE, role(), { ...role(), assume_role_policy: JSON.stringify({ Statement: [{ Effect: "Allow", Principal: { AWS: "*" }, Action: "sts:AssumeRole" }] }) })]);
      expect(flags).toEqual([expect.objectContaining({ kind: RiskKind.IamNewPrincipal, severity: Severity.High })]);
    });

    it("stays silent when a policy is reordered or narrowed", () => {
      const before = rolePolicy([LEDGER_STATEMENT, { Sid: "Logs", Effect: "Allow", Action: ["logs:PutLogEvents"], Resource: ["arn:aws:logs:us-east-1:000000000000:log-group:/p:*"] }]);
      const reordered = rolePolicy([{ ...LEDGER_STATEMENT, Action: [...LEDGER_STATEMENT.Action].reverse() }]);
      expect(risks([update(POLICY, before, reordered)])).toEqual([]);
    });

    it("does not flag a brand-new policy on an empty state, but does on a real or seeded one", () => {
      const created = { address: POLICY, actions: ["create"], before: null, after: rolePolicy([{ ...LEDGER_STATEMENT, Resource: "*" }]) };
      expect(risks([created], ActionBasis.EmptyState)).toEqual([]);
      expect(kinds(risks([created], ActionBasis.SeededState))).toEqual(expect.arrayContaining([RiskKind.IamNewAction, RiskKind.IamNewWildcard]));
    });
  });

  describe("Rule: table settings", () => {
    it("flags TTL turned off, and stays silent while it stays on", () => {
      expect(kinds(risks([update(LEDGER, table(), table({ ttl: [{ attribute_name: "", enabled: false }] }))]))).toEqual([RiskKind.TtlDisabled]);
      expect(risks([update(LEDGER, table(), table({ billing_mode: "PROVISIONED" }))])).toEqual([]);
    });

    it("flags a changed TTL attribute: items written with the old one never expire", () => {
      const flags = risks([update(LEDGER, table(), table({ ttl: [{ attribute_name: "ttl", enabled: true }] }))]);
      expect(kinds(flags)).toEqual([RiskKind.TtlAttributeChanged]);
      expect(flags[0].message).toContain("`expiresAt` never expire");
    });

    it("flags PITR turned off, and stays silent when it stays on", () => {
      expect(kinds(risks([update(LEDGER, table(), table({ point_in_time_recovery: [{ enabled: false }] }))]))).toEqual([RiskKind.PitrDisabled]);
      expect(risks([update(LEDGER, table(), table({ point_in_time_recovery: [{ enabled: true }], billing_mode: "PROVISIONED" }))])).toEqual([]);
    });

    it("flags deletion protection turned off, and stays silent when it stays on", () => {
      expect(kinds(risks([update(LEDGER, table(), table({ deletion_protection_enabled: false }))]))).toEqual([RiskKind.DeletionProtectionOff]);
      expect(risks([update(LEDGER, table({ deletion_protection_enabled: false }), table({ deletion_protection_enabled: false }))])).toEqual([]);
    });
  });

  describe("Rule: queue settings", () => {
    it("flags encryption turned off and a removed redrive", () => {
      const flags = risks([update(QUEUE, queue(), queue({ sqs_managed_sse_enabled: false, redrive_policy: "" }))]);
      expect(kinds(flags).sort()).toEqual([RiskKind.EncryptionOff, RiskKind.RedriveRemoved].sort());
    });

    it("stays silent when only the redrive count changes", () => {
      const after = queue({ redrive_policy: JSON.stringify({ deadLetterTargetArn: "arn:aws:sqs:us-east-1:000000000000:p-dlq", maxReceiveCount: 8 }) });
      expect(risks([update(QUEUE, queue(), after)])).toEqual([]);
    });
  });

  describe("Rule: workflow wiring", () => {
    it("flags a state machine type change, and stays silent on other updates", () => {
      const flags = risks([{ address: MACHINE, actions: ["delete", "create"], before: stateMachine(), after: stateMachine({ type: "STANDARD" }), replacePaths: [["type"]] }]);
      expect(kinds(flags)).toEqual([RiskKind.StateMachineTypeChange]);
      expect(flags[0].message).toContain("EXPRESS → STANDARD");
      expect(risks([update(MACHINE, stateMachine(), stateMachine({ logging_configuration: [{ level: "ALL", include_execution_data: false, log_destination: "x" }] }))])).toEqual([]);
    });

    it("flags an invocation type change to FIRE_AND_FORGET as high, and stays silent on a batch size change", () => {
      const after = pipe({ target_parameters: [{ step_function_state_machine_parameters: [{ invocation_type: "FIRE_AND_FORGET" }] }] });
      const flags = risks([update(PIPE, pipe(), after)]);
      expect(flags).toEqual([expect.objectContaining({ kind: RiskKind.InvocationTypeChange, severity: Severity.High })]);
      const batch = pipe({ source_parameters: [{ filter_criteria: [], sqs_queue_parameters: [{ batch_size: 5, maximum_batching_window_in_seconds: 1 }] }] });
      expect(risks([update(PIPE, pipe(), batch)])).toEqual([]);
    });
  });

  it("orders high-severity flags first", () => {
    const flags = risks([
      update(POLICY, rolePolicy([LEDGER_STATEMENT]), rolePolicy([{ ...LEDGER_STATEMENT, Action: ["dynamodb:PutItem", "dynamodb:GetItem", "dynamodb:Query"] }])),
      { address: LEDGER, actions: ["delete", "create"], before: table(), after: table({ name: "q-ledger" }) },
    ]);
    expect(flags.map((f) => f.severity)).toEqual([Severity.High, Severity.Medium]);
  });
});
