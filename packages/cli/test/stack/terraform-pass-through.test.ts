/**
 * A team's literal `${` (or `%{`) in an environment value or a filter pattern reaches AWS as written: the construct
 * writes Terraform's escapes (`$${`, `%%{`), the real `terraform validate` (offline, provider mirror) accepts the
 * stack where it failed with "Invalid reference", and the local cloud's terraform-json reader reads the values back
 * as given. logRetentionDays 0 (never expire) validates too.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { renderTemplate } from "@effectively-once/local-cloud/terraform-json";
import { findTerraform } from "../../src/terraform/offline";
import { validateOffline } from "./support/validate-offline";
import { resourcesOfType, type SynthesizedStack } from "@effectively-once/testing";
import { synthStack } from "@effectively-once/testing/stack";

const terraform = findTerraform();
const optedOut = !terraform && process.env.SKIP_TERRAFORM_TESTS === "1";
if (optedOut) console.warn("\n*** terraform CLI not found and SKIP_TERRAFORM_TESTS=1: the escaped templates are NOT checked by `terraform validate` ***\n");

const GREETING = "Hello ${name}, 100%{ok}; $${kept}";
const PATTERN = { body: { template: ["${order}"] } };
const read = (text: string) => renderTemplate(text, () => "(a reference)");

(optedOut ? describe.skip : describe)("a team's literal ${ in the Terraform JSON", () => {
  let stack: SynthesizedStack;
  let cliDir: string;
  beforeAll(() => {
    stack = synthStack({ logRetentionDays: 0, filterPatterns: [PATTERN], function: { environment: { GREETING } } });
    cliDir = mkdtempSync(join(tmpdir(), "pipeline-tfrc-"));
  });
  afterAll(() => {
    stack?.cleanup();
    rmSync(cliDir, { recursive: true, force: true });
  });

  it("is written escaped and read back as given by the local cloud's reader", () => {
    const [[, fn]] = resourcesOfType(stack.json, "aws_lambda_function");
    const written = (fn.environment as { variables: Record<string, string> }).variables.GREETING;
    expect(written).toBe("Hello $${name}, 100%%{ok}; $$${kept}");
    expect(read(written)).toBe(GREETING);
    const [[, pipe]] = resourcesOfType(stack.json, "aws_pipes_pipe");
    const pattern = (pipe.source_parameters as { filter_criteria: { filter: { pattern: string }[] } }).filter_criteria.filter[0].pattern;
    expect(JSON.parse(read(pattern)!)).toEqual(PATTERN);
    const output = (stack.json as { output?: Record<string, { value: string }> }).output ?? {};
    const filters = Object.entries(output).find(([name]) => name.endsWith("filter_patterns"))![1].value;
    expect(JSON.parse(read(filters)!)).toEqual([PATTERN]);
  });

  it("passes terraform validate (offline, provider mirror), with logRetentionDays 0", async () => {
    const result = await validateOffline(terraform, stack.stackDir, cliDir);
    expect(result.diagnostics).toEqual([]);
    expect(result.valid).toBe(true);
  }, 120_000);
});
