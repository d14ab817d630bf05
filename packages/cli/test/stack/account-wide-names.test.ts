/**
 * IAM role names and CloudWatch dashboard names are unique per account, not per region: they carry the provider's
 * region, so one prefix can serve many regions, while the regional names (queues, tables, functions, state machines,
 * pipes, log groups, alarms) keep their form. Two constructs of one stack never create one name.
 */
import { AwsProvider } from "@cdktf/provider-aws/lib/provider";
import { App, TerraformStack, TerraformVariable } from "cdktf";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EffectJournalTable, IdempotentPipeline, InvalidPropError, type IdempotentPipelineProps } from "@effectively-once/pipeline";
import { readStack, type SynthesizedStack } from "@effectively-once/local-cloud/terraform-json";
import { nameOf } from "../../src/iam/stack-values";

const TICKETS = (namePrefix: string): IdempotentPipelineProps => ({
  namePrefix,
  businessKey: { expression: "[queue, number]", requiredFields: ["queue", "number"] },
  operation: "open",
  payloadFields: ["priority"],
  function: { name: "open", entry: join(__dirname, "..", "..", "..", "..", "test", "public-api", "tickets-handler.ts") },
});

/** The name types whose names are unique per account, and each resource's name attribute. */
const ACCOUNT_WIDE = new Set(["aws_iam_role", "aws_cloudwatch_dashboard"]);

/** Every name the stack creates: [type, name as synthesized] (resolved in `region` when given). */
function namesOf(stack: SynthesizedStack, region?: string): [string, string][] {
  const out: [string, string][] = [];
  for (const [type, blocks] of Object.entries(stack.resources)) {
    for (const id of Object.keys(blocks)) {
      const name = region ? nameOf(stack, type, id, { partition: "aws", account: "111122223333", region }) : ["name", "function_name", "alarm_name", "dashboard_name"].map((f) => blocks[id][f]).find((v) => typeof v === "string");
      if (typeof name === "string" && type !== "aws_iam_role_policy") out.push([type, name]);
    }
  }
  return out.sort();
}

let outdir: string;
beforeEach(() => (outdir = mkdtempSync(join(tmpdir(), "account-wide-"))));
afterEach(() => rmSync(outdir, { recursive: true, force: true }));

function synthesized(app: App, stackName: string): SynthesizedStack {
  app.synth();
  return readStack(join(outdir, "stacks", stackName, "cdk.tf.json"));
}

describe("Account-wide names carry the region", () => {
  it("one prefix in two regions (two stacks): distinct roles and dashboards, the same regional names", () => {
    const app = new App({ outdir });
    for (const region of ["us-east-1", "eu-west-1"]) {
      const stack = new TerraformStack(app, `tickets-${region}`);
      new AwsProvider(stack, "aws", { region });
      new IdempotentPipeline(stack, "pipeline", TICKETS("tickets"));
    }
    const east = namesOf(synthesized(app, "tickets-us-east-1"));
    const west = namesOf(synthesized(app, "tickets-eu-west-1"));
    const accountWide = (names: [string, string][]) => names.filter(([type]) => ACCOUNT_WIDE.has(type)).map(([, n]) => n);
    expect(accountWide(east)).toEqual(["tickets-pipeline-us-east-1", "tickets-dlq-ping-us-east-1-role", "tickets-open-us-east-1-role", "tickets-pipe-us-east-1-role", "tickets-workflow-us-east-1-role"]);
    expect(accountWide(west)).toEqual(["tickets-pipeline-eu-west-1", "tickets-dlq-ping-eu-west-1-role", "tickets-open-eu-west-1-role", "tickets-pipe-eu-west-1-role", "tickets-workflow-eu-west-1-role"]);
    const regional = (names: [string, string][]) => names.filter(([type]) => !ACCOUNT_WIDE.has(type));
    expect(regional(east)).toEqual(regional(west));
    expect(regional(east).map(([, n]) => n)).toEqual(expect.arrayContaining(["tickets-queue", "tickets-dlq", "tickets-ledger", "tickets-idempotency", "tickets-open", "tickets-workflow", "tickets-pipe", "/aws/lambda/tickets-open", "tickets-dlq-depth"]));
  });

  it("a region known only at plan time: the names read data \"aws_region\" and differ once it is known", () => {
    const app = new App({ outdir });
    const stack = new TerraformStack(app, "tickets");
    new AwsProvider(stack, "aws", { region: new TerraformVariable(stack, "region", { type: "string" }).stringValue });
    new IdempotentPipeline(stack, "pipeline", TICKETS("tickets"));
    const json = synthesized(app, "tickets");
    const [[regionId]] = Object.entries(json.data.aws_region ?? {});
    const roles = Object.values(json.resources.aws_iam_role).map((r) => r.name);
    expect(roles).toContain(`tickets-pipe-\${data.aws_region.${regionId}.name}-role`);
    const inEast = namesOf(json, "us-east-1").filter(([type]) => ACCOUNT_WIDE.has(type));
    const inWest = namesOf(json, "ap-southeast-2").filter(([type]) => ACCOUNT_WIDE.has(type));
    expect(inEast.map(([, n]) => n)).toContain("tickets-pipe-us-east-1-role");
    for (const [, name] of inEast) expect(inWest.map(([, n]) => n)).not.toContain(name);
  });

  it("a region known only at plan time holds the role name to 64 characters in the longest region, with the arithmetic", () => {
    const build = (namePrefix: string) => () => {
      const stack = new TerraformStack(new App({ outdir }), "tickets");
      new AwsProvider(stack, "aws", { region: new TerraformVariable(stack, "region", { type: "string" }).stringValue });
      new IdempotentPipeline(stack, "pipeline", TICKETS(namePrefix));
    };
    // "<prefix>-workflow-<region>-role" and "<prefix>-dlq-ping-<region>-role": 15 fixed characters and 14 for ap-southeast-1 leave 35 for the prefix.
    expect(build("p".repeat(35))).not.toThrow();
    expect(build("p".repeat(36))).toThrow(InvalidPropError);
    expect(build("p".repeat(36))).toThrow(
      `namePrefix = "${"p".repeat(36)}" makes names longer than AWS accepts in every region (the provider's region is not a literal): IAM role name "${"p".repeat(36)}-workflow-ap-southeast-1-role" (namePrefix 36 + region (unknown at synth: the longest, ap-southeast-1) 14 + fixed text 15 = 65 > 64), IAM role name "${"p".repeat(36)}-dlq-ping-ap-southeast-1-role"`,
    );
  });
});

describe("One name, one construct, per stack", () => {
  it("refuses a second pipeline with the same prefix, naming every clashing name (33: queues, tables, function, roles, log groups, state machine, pipe, dashboard, alarm topic, keep-alive schedule, 16 alarms) and both constructs", () => {
    const stack = new TerraformStack(new App({ outdir }), "tickets");
    new AwsProvider(stack, "aws", { region: "us-east-1" });
    new IdempotentPipeline(stack, "first", TICKETS("tickets"));
    let error: unknown;
    try {
      new IdempotentPipeline(stack, "second", TICKETS("tickets"));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InvalidPropError);
    const problems = (error as InvalidPropError).problems;
    expect(problems).toHaveLength(33);
    expect(problems[0]).toEqual({
      prop: "namePrefix",
      value: "tickets",
      reason: 'makes the SQS queue name "tickets-queue" (the source queue of tickets/second), which tickets/first already creates in this stack as its source queue',
      fix: "give each pipeline in a stack its own namePrefix (two environments in one region need two prefixes; one prefix may serve many regions)",
    });
    expect(problems.map((p) => /name "([^"]+)"/.exec(p.reason)![1])).toEqual(expect.arrayContaining(["tickets-open-us-east-1-role", "tickets-pipeline-us-east-1", "tickets-pipe-execution-failed"]));
  });

  it("refuses a clash between names of different props (prefix \"a\" + function \"b-c\" against prefix \"a-b\" + function \"c\")", () => {
    const stack = new TerraformStack(new App({ outdir }), "tickets");
    new AwsProvider(stack, "aws", { region: "us-east-1" });
    new IdempotentPipeline(stack, "first", { ...TICKETS("a"), function: { ...TICKETS("a").function, name: "b-c" } });
    expect(() => new IdempotentPipeline(stack, "second", { ...TICKETS("a-b"), function: { ...TICKETS("a-b").function, name: "c" } })).toThrow(
      /Lambda function name "a-b-c" \(the function of tickets\/second\), which tickets\/first already creates/,
    );
  });

  it("refuses two effect journals with one prefix, and accepts two pipelines with two prefixes (also with a plan-time region)", () => {
    const stack = new TerraformStack(new App({ outdir }), "tickets");
    new AwsProvider(stack, "aws", { region: new TerraformVariable(stack, "region", { type: "string" }).stringValue });
    new EffectJournalTable(stack, "desk", { namePrefix: "tickets" });
    expect(() => new EffectJournalTable(stack, "desk-2", { namePrefix: "tickets" })).toThrow(/DynamoDB table name "tickets-effects".*tickets\/desk already creates/);
    new IdempotentPipeline(stack, "blue", TICKETS("tickets-blue"));
    expect(() => new IdempotentPipeline(stack, "green", TICKETS("tickets-green"))).not.toThrow();
    // The region is one reference per pipeline, so the account-wide names are compared in one region text.
    expect(() => new IdempotentPipeline(stack, "blue-2", TICKETS("tickets-blue"))).toThrow(/IAM role name "tickets-blue-open-<region>-role"/);
  });
});
