import { readFileSync } from "node:fs";
import { join } from "node:path";
import { synthStack } from "@effectively-once/testing/stack";

/**
 * docs/cdk-terrain.md says where a native CDK Terrain build differs from the cdktf build: besides the provider and the
 * version stamp, every reference to `data "aws_region"` reads `region` instead of `name`. This holds the page's count
 * and places to the construct: a new region reference changes the native build in one more place, and the page must say so.
 */
describe("docs/cdk-terrain.md: the region references that differ between the two builds", () => {
  it("lists as many references, in the same places, as the cdktf build synthesizes", () => {
    const page = readFileSync(join(__dirname, "../../docs/cdk-terrain.md"), "utf8");
    const claimed = /\| (\d+) references to the region: the `region` output, the dashboard's (\d+) widgets \(`region`\), the pipe's, the workflow's and the DLQ keep-alive's trust policies/.exec(page);
    expect(claimed).not.toBeNull();
    const stack = synthStack();
    try {
      const count = (value: unknown) => (JSON.stringify(value).match(/data\.aws_region\.[\w-]+\.name/g) ?? []).length;
      const resources = stack.json.resource;
      const places = {
        output: count(stack.json.output.region),
        dashboard: count(resources.aws_cloudwatch_dashboard),
        trust: Object.values(resources.aws_iam_role).map((r) => count(r.assume_role_policy)),
        total: count(stack.json),
      };
      expect(places).toEqual({ output: 1, dashboard: Number(claimed![2]), trust: [1, 0, 1, 1], total: Number(claimed![1]) });
    } finally {
      stack.cleanup();
    }
  });
});
