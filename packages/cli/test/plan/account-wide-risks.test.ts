import { buildReview } from "../../src/terraform/review/build";
import { ActionBasis, RiskKind, Severity, type RiskFlag } from "../../src/terraform/review/types";
import { ROLE, plan, role, update, type FixtureResource } from "./support/plan-fixtures";

function risks(resources: readonly FixtureResource[]): RiskFlag[] {
  return [...buildReview(plan(resources), { basis: ActionBasis.RealState }).risks];
}

const DASHBOARD = "aws_cloudwatch_dashboard.pipeline";

describe("Rule: account-wide names renamed (roles and dashboard carry the region)", () => {
  it("notes a replaced role: created first, users switched, old one deleted last; the workflow role's id changes", () => {
    const flags = risks([{ address: ROLE, actions: ["create", "delete"], before: role(), after: role("states.amazonaws.com", "p-workflow-us-east-1-role"), replacePaths: [["name"]] }]);
    expect(flags).toEqual([expect.objectContaining({ kind: RiskKind.AccountWideRename, severity: Severity.Medium, address: ROLE })]);
    expect(flags[0].message).toContain("Role p-workflow-role is replaced by p-workflow-us-east-1-role: the construct creates the new role and its policy first (create_before_destroy)");
    expect(flags[0].message).toContain("workflow_role_id");
  });

  it("notes a replaced dashboard, which another region's stack with the same prefix may have shared", () => {
    const dashboard = (name: string) => ({ dashboard_name: name, dashboard_body: "{}" });
    const flags = risks([{ address: DASHBOARD, actions: ["delete", "create"], before: dashboard("p-pipeline"), after: dashboard("p-pipeline-eu-west-1"), replacePaths: [["dashboard_name"]] }]);
    expect(flags).toEqual([expect.objectContaining({ kind: RiskKind.AccountWideRename, address: DASHBOARD })]);
    expect(flags[0].message).toContain("Dashboard p-pipeline is replaced by p-pipeline-eu-west-1: dashboards are account-wide");
  });

  it("stays silent when a role is only updated in place", () => {
    expect(risks([update(ROLE, role(), role("pipes.amazonaws.com"))]).map((f) => f.kind)).not.toContain(RiskKind.AccountWideRename);
  });
});
