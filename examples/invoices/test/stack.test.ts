import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { App } from "cdktf";
import { app } from "../stack";

type Json = Record<string, any>;

describe("Example: invoices stack", () => {
  let outdir: string;
  let stack: Json;

  beforeAll(() => {
    outdir = mkdtempSync(join(tmpdir(), "invoices-synth-"));
    const cdktfApp = new App({ outdir });
    app.addStack(cdktfApp, { stackName: "invoices-test", region: "eu-west-1", namePrefix: "inv" });
    cdktfApp.synth();
    stack = JSON.parse(readFileSync(join(outdir, "stacks/invoices-test/cdk.tf.json"), "utf8"));
  });

  afterAll(() => rmSync(outdir, { recursive: true, force: true }));

  it("publishes its own contract and the journal's table as outputs, under the names the tools read", () => {
    // Act
    const outputs = Object.fromEntries(Object.entries(stack.output as Json).map(([name, o]) => [name, o.value]));

    // Assert
    expect(outputs).toMatchObject({
      business_key_expression: "[customerId, invoiceNumber]",
      business_key_fields: '["customerId","invoiceNumber"]',
      payload_fields: '["lines","currency","dueDate"]',
      operation: "issue",
      effects_table_name: expect.stringMatching(/^\$\{aws_dynamodb_table\.billing_effects_[0-9A-F]+\.name\}$/),
    });
  });

  it("gives its function the journal's table and nothing more than it needs, and catches the wrapper's errors by default", () => {
    // Arrange
    const [fn] = Object.values(stack.resource.aws_lambda_function as Json);
    const [machine] = Object.values(stack.resource.aws_sfn_state_machine as Json);
    const role = Object.entries(stack.resource.aws_iam_role_policy as Json).find(([id]) => id.startsWith("pipeline_downstream_"))![1];

    // Act
    const invoke = JSON.parse(machine.definition).States.ProcessBatch.ItemProcessor.States.Invoke;
    const journal = JSON.parse(role.policy).Statement.find((s: Json) => s.Sid === "EffectJournal");

    // Assert
    expect(fn).toMatchObject({ function_name: "inv-issue", environment: { variables: expect.objectContaining({ EFFECTS_TABLE_NAME: stack.output.effects_table_name.value, PAYLOAD_FIELDS: '["lines","currency","dueDate"]' }) } });
    expect(journal).toEqual({ Sid: "EffectJournal", Effect: "Allow", Action: ["dynamodb:PutItem", "dynamodb:GetItem"], Resource: [expect.stringMatching(/billing_effects.*\.arn/)] });
    expect(invoke.Catch.map((c: Json) => [c.Assign.reason ?? c.Assign.disposition, c.ErrorEquals])).toEqual([
      ["payload-mismatch", ["IdempotencyValidationError", "PipelineConflict"]],
      ["rejected", ["PipelineRejected"]],
      ["retry", ["States.ALL"]],
    ]);
  });
});
