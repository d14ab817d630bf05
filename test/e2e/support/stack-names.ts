import { StackOutputsError } from "./errors";

/** What the suite needs to know about a deployed (or locally running) stack: its Terraform outputs. */
export interface StackNames {
  readonly region: string;
  readonly queueUrl: string;
  readonly dlqUrl: string;
  readonly ledgerTable: string;
  readonly idempotencyTable: string;
  readonly effectsTable: string;
  readonly functionName: string;
  /** The ledger's sort key and the second half of the downstream key, e.g. "charge". */
  readonly operation: string;
}

/** Terraform output names, as the stack declares them (`terraform output`, the local cloud's `outputs`). */
export const OUTPUT_NAMES: { readonly [K in keyof StackNames]: string } = {
  region: "region",
  queueUrl: "queue_url",
  dlqUrl: "dlq_url",
  ledgerTable: "ledger_table_name",
  idempotencyTable: "idempotency_table_name",
  effectsTable: "effects_table_name",
  functionName: "function_name",
  operation: "operation",
};

/** Picks the suite's names out of a flat `{ output name: value }` map; a missing one is named in the error. */
export function stackNamesFromOutputs(outputs: Record<string, unknown>, source: string): StackNames {
  const missing: string[] = [];
  const read = (output: string): string => {
    const value = outputs[output];
    if (typeof value === "string" && value !== "") return value;
    missing.push(output);
    return "";
  };
  const names = Object.fromEntries(Object.entries(OUTPUT_NAMES).map(([field, output]) => [field, read(output)])) as unknown as StackNames;
  if (missing.length > 0) {
    throw new StackOutputsError(
      `${source} lacks the output(s) ${missing.join(", ")} (found: ${Object.keys(outputs).sort().join(", ") || "none"}); ` +
        "deploy the payments stack of this project and write its outputs with `cdktf deploy --outputs-file <file>`",
    );
  }
  return names;
}
