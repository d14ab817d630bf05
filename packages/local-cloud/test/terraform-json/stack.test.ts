import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { mapTemplates, parseStack, providerConfig, readStack, referencesIn, resourceList, resourcesOf, StackJsonError } from "../../src/terraform-json";

const synthesized = {
  "//": { metadata: { backend: "local" } },
  provider: { aws: [{ region: "eu-west-1", default_tags: [{ tags: { a: "b" } }] }, { alias: "us", region: "us-east-1" }] },
  terraform: { required_providers: { aws: { source: "aws", version: "5.100.0" } } },
  data: { aws_partition: { p: {} } },
  resource: {
    aws_sqs_queue: {
      dlq: { name: "dlq" },
      queue: {
        "//": { metadata: { path: "${not.a.ref}" } },
        name: "queue",
        depends_on: ["aws_sqs_queue.dlq"],
        redrive_policy: '{"deadLetterTargetArn":"${aws_sqs_queue.dlq.arn}","maxReceiveCount":5}',
        tags: { partition: "${data.aws_partition.p.partition}" },
      },
    },
  },
  output: { dlq_arn: { value: "${aws_sqs_queue.dlq.arn}" } },
};

describe("Function: parseStack", () => {
  it("reads resources by type and name, data sources, outputs, providers and the terraform block", () => {
    // Act
    const stack = parseStack(synthesized, "cdk.tf.json");

    // Assert
    expect(resourcesOf(stack, "aws_sqs_queue").map(([name]) => name)).toEqual(["dlq", "queue"]);
    expect(resourcesOf(stack, "aws_lambda_function")).toEqual([]);
    expect(resourceList(stack)).toEqual([{ type: "aws_sqs_queue", name: "dlq" }, { type: "aws_sqs_queue", name: "queue" }]);
    expect(Object.keys(stack.data.aws_partition)).toEqual(["p"]);
    expect(stack.outputs.dlq_arn.value).toBe("${aws_sqs_queue.dlq.arn}");
    expect(providerConfig(stack, "aws")?.region).toBe("eu-west-1");
    expect(stack.terraform.required_providers).toEqual({ aws: { source: "aws", version: "5.100.0" } });
  });

  it("accepts a provider written as one object, and a stack without optional blocks", () => {
    const stack = parseStack({ provider: { aws: { region: "us-west-2" } } }, "main.tf.json");
    expect(providerConfig(stack, "aws")?.region).toBe("us-west-2");
    expect(stack.resources).toEqual({});
  });

  it.each([
    [{ resource: [] }, 'x.json: "resource" must be an object of types, got []'],
    [{ resource: { aws_sqs_queue: { q: "queue" } } }, 'x.json: "resource.aws_sqs_queue.q" must be an object, got "queue"'],
    [{ output: { a: 1 } }, 'x.json: every "output.<name>" must be an object with a "value"'],
    [{ provider: { aws: ["us-east-1"] } }, 'x.json: "provider.aws" must be an object or a list of objects'],
  ])("names the block that has the wrong shape (%j)", (json, message) => {
    expect(() => parseStack(json, "x.json")).toThrow(new StackJsonError(message));
  });
});

describe("Function: readStack", () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), "terraform-json-"))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("reads a file, and says when it is missing or not JSON", () => {
    writeFileSync(join(dir, "ok.json"), JSON.stringify(synthesized));
    writeFileSync(join(dir, "bad.json"), "{");
    expect(providerConfig(readStack(join(dir, "ok.json")), "aws")?.region).toBe("eu-west-1");
    expect(() => readStack(join(dir, "none.json"))).toThrow(/^no synthesized stack at .*none\.json$/);
    expect(() => readStack(join(dir, "bad.json"))).toThrow(/bad\.json is not JSON/);
  });
});

describe("Function: referencesIn / mapTemplates", () => {
  const queue = synthesized.resource.aws_sqs_queue.queue;

  it("finds the references of a block's templates, not of its comment or depends_on", () => {
    expect(referencesIn(queue).map((r) => `${r.address}.${r.attribute}`)).toEqual(["aws_sqs_queue.dlq.arn", "data.aws_partition.p.partition"]);
  });

  it("maps every template string with its path and keeps comments and meta-arguments", () => {
    const paths: string[] = [];
    const mapped = mapTemplates(queue, (text, path) => (paths.push(path), text.toUpperCase()), "aws_sqs_queue.queue");
    expect(paths).toEqual(["aws_sqs_queue.queue.name", "aws_sqs_queue.queue.redrive_policy", "aws_sqs_queue.queue.tags.partition"]);
    expect(mapped).toMatchObject({ "//": queue["//"], name: "QUEUE", depends_on: ["aws_sqs_queue.dlq"] });
  });
});
