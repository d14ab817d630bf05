import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findTerraform } from "../../src/terraform/offline";
import { validateOffline } from "./support/validate-offline";
import { type SynthesizedStack } from "@effectively-once/testing";
import { synthStack } from "@effectively-once/testing/stack";

const terraform = findTerraform();
// This project's machines carry terraform and a provider mirror, so the test must run there. Elsewhere a
// contributor may opt out explicitly; the opt-out is announced, never silent.
const optedOut = !terraform && process.env.SKIP_TERRAFORM_TESTS === "1";
if (optedOut) console.warn("\n*** terraform CLI not found and SKIP_TERRAFORM_TESTS=1: `terraform validate` of the stack is NOT checked ***\n");

/** The default stack, and FIFO mode's (FIFO queues, content-based deduplication, the FIFO definition). */
const STACKS: readonly [string, Parameters<typeof synthStack>[0]][] = [
  ["the default stack", {}],
  ["a FIFO stack", { fifo: true, contentBasedDeduplication: true }],
];

(optedOut ? describe.skip : describe).each(STACKS)("terraform validate (offline, provider mirror): %s", (_name, overrides) => {
  let stack: SynthesizedStack;
  let cliDir: string;
  beforeAll(() => {
    stack = synthStack(overrides);
    cliDir = mkdtempSync(join(tmpdir(), "pipeline-tfrc-"));
  });
  afterAll(() => {
    stack?.cleanup();
    rmSync(cliDir, { recursive: true, force: true });
  });

  it("accepts the synthesized stack with the hashicorp/aws its required_providers names, from the mirror", async () => {
    const result = await validateOffline(terraform, stack.stackDir, cliDir);
    expect(result.diagnostics).toEqual([]);
    expect(result.valid).toBe(true);
    // The stack validated is the one named: FIFO mode's queues are FIFO queues.
    const queues = Object.values(stack.json.resource.aws_sqs_queue ?? {}) as { fifo_queue?: boolean }[];
    expect(queues.map((q) => q.fifo_queue === true)).toEqual(queues.map(() => overrides?.fifo === true));
  }, 60_000);
});
