import { buildReview } from "../../src/terraform/review/build";
import { formatSeconds, renderMarkdown } from "../../src/terraform/review/markdown";
import { ActionBasis } from "../../src/terraform/review/types";
import { LEDGER, POLICY, QUEUE, plan, queue, rolePolicy, table } from "./support/plan-fixtures";

describe("Section: Markdown rendering", () => {
  const createOnly = plan([
    { address: LEDGER, actions: ["create"], after: table() },
    { address: QUEUE, actions: ["create"], after: queue() },
    { address: POLICY, actions: ["create"], after: rolePolicy([{ Sid: "Tracing", Effect: "Allow", Action: ["xray:PutTraceSegments"], Resource: "*" }]) },
  ]);

  it("renders the summary, risks, IAM and settings sections for a PR comment", () => {
    const md = renderMarkdown(buildReview(createOnly, { stack: "s", mode: "offline", basis: ActionBasis.EmptyState }));
    expect(md).toContain("## Terraform plan review: `s` (offline)");
    expect(md).toContain("**Plan:** 3 to create, 0 to update, 0 to replace, 0 to destroy, 0 unchanged.");
    expect(md).toContain("| DynamoDB | 1 | 0 | 0 | 0 | 0 |");
    expect(md).toContain("No risk flags");
    expect(md).toMatch(/\| p-workflow-role \| inline policy \| Tracing \| Allow \| `xray:PutTraceSegments` \| `\*` \| `\*` required: X-Ray/);
    expect(md).toContain("| p-queue | SQS-managed (SSE-SQS) | 360 s (6 min) | 345600 s (4 d) | 20 s | `arn:aws:sqs:us-east-1:000000000000:p-dlq` | 5 |");
    expect(md).toContain("| p-ledger | `pk` + `sk` | PAY_PER_REQUEST | KMS: AWS managed key (aws/dynamodb) | `expiresAt` | on | on |");
    expect(md).toContain("every resource is a create");
  });

  it("puts each risk on its own line with its severity", () => {
    const p = plan([{ address: LEDGER, actions: ["delete", "create"], before: table(), after: table({ name: "x" }), replacePaths: [["name"]] }]);
    const md = renderMarkdown(buildReview(p, { basis: ActionBasis.SeededState }));
    expect(md).toMatch(/^- 🔴 \*\*high\*\* `aws_dynamodb_table\.ledger`: DATA LOSS: p-ledger is replaced/m);
    expect(md).toContain("| replace | `aws_dynamodb_table.ledger` | x | `name` |");
  });

  it("escapes table cells so a value cannot break the table", () => {
    const p = plan([{ address: QUEUE, actions: ["create"], after: queue({ name: "a|b" }) }]);
    expect(renderMarkdown(buildReview(p, { basis: ActionBasis.EmptyState }))).toContain("| a\\|b |");
  });

  it("formats durations with their natural unit", () => {
    expect(formatSeconds(1209600)).toBe("1209600 s (14 d)");
    expect(formatSeconds(90)).toBe("90 s");
    expect(formatSeconds(null)).toBe("—");
  });
});
