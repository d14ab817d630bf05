import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { App } from "cdktf";
import { app } from "../stack";

type Json = Record<string, any>;

describe("Example: ledger-entries stack (FIFO mode)", () => {
  let outdir: string;
  let stack: Json;

  beforeAll(() => {
    outdir = mkdtempSync(join(tmpdir(), "ledger-synth-"));
    const cdktfApp = new App({ outdir });
    app.addStack(cdktfApp, { stackName: "ledger-test", region: "eu-west-1", namePrefix: "ledger" });
    cdktfApp.synth();
    stack = JSON.parse(readFileSync(join(outdir, "stacks/ledger-test/cdk.tf.json"), "utf8"));
  });
  afterAll(() => rmSync(outdir, { recursive: true, force: true }));

  it("makes FIFO queues and the FIFO state machine", () => {
    const queues = Object.values(stack.resource.aws_sqs_queue as Json);
    expect(queues.map((q) => [q.name, q.fifo_queue]).sort()).toEqual([["ledger-dlq.fifo", true], ["ledger-queue.fifo", true]]);
    const [machine] = Object.values(stack.resource.aws_sfn_state_machine as Json);
    expect(JSON.parse(machine.definition).States.ProcessBatch.ItemProcessor.StartAt).toBe("StartGroup");
  });

  it("publishes its contract under the names the tools read", () => {
    const outputs = Object.fromEntries(Object.entries(stack.output as Json).map(([name, o]) => [name, o.value]));
    expect(outputs).toMatchObject({ business_key_expression: "[accountId, entryId]", operation: "post", payload_fields: '["amount","currency"]' });
    expect(outputs.queue_url).toMatch(/aws_sqs_queue\..*\.url/);
  });
});
