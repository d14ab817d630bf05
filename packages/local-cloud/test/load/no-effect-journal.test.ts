/**
 * soak and bench count applications in the function's effect journal: a stack without one (a downstream that calls an
 * HTTP API) is refused before anything boots, naming the missing output and the fix, instead of an SDK error later.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { OutputName } from "@effectively-once/contract";
import { namesOf } from "../../src/stack/load-stack";

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "no-effect-journal-"))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function stackWith(outputs: ReadonlyArray<readonly [string, string]>): string {
  const file = join(dir, "cdk.tf.json");
  // The least a stack file holds: a provider with a literal region, one resource, and the outputs under test.
  const stack = {
    provider: { aws: [{ region: "eu-west-1" }] },
    resource: { aws_sqs_queue: { source: { name: "t-source" } } },
    output: Object.fromEntries(outputs.map(([name, value]) => [name, { value }])),
  };
  writeFileSync(file, JSON.stringify(stack));
  return file;
}

const PIPELINE_OUTPUTS = [
  [OutputName.LedgerTable, "t-ledger"],
  [OutputName.IdempotencyTable, "t-idempotency"],
  [OutputName.FunctionName, "t-fn"],
  [OutputName.Operation, "charge"],
] as const;

it("reads the names when the stack has an effect journal", () => {
  const names = namesOf(stackWith([...PIPELINE_OUTPUTS, [OutputName.EffectsTable, "t-effects"]]));
  expect(names).toEqual({ ledgerTable: "t-ledger", idempotencyTable: "t-idempotency", effectsTable: "t-effects", functionName: "t-fn", operation: "charge" });
});

it("refuses a stack whose function keeps no effect journal, naming the output and the fix", () => {
  expect(() => namesOf(stackWith(PIPELINE_OUTPUTS))).toThrow(new RegExp(`no ${OutputName.EffectsTable} output.*EffectJournalTable.*verify --target local`));
});
