import { readOutputsFile } from "@effectively-once/ops";
import { StackOutputsError } from "./errors";

/**
 * The outputs of one stack, keyed by Terraform output name, from a `cdktf deploy --outputs-file <file>` file.
 * cdktf nests each stack's outputs by construct path and keys them by construct id
 * (`{"<stack>": {"effects-table-name": …, "pipeline": {"output-queue_url": …}}}`); the operator CLI's reader,
 * reused here, maps them back (`output-queue_url` → `queue_url`) and also reads flat and `terraform output -json`
 * files. Its errors speak of `--stack`; the suite's of E2E_STACK and E2E_OUTPUTS_FILE.
 */
export function readStackOutputs(file: string, stack?: string): Record<string, unknown> {
  try {
    return readOutputsFile(file, stack).outputs;
  } catch (error) {
    const message = (error as Error).message.replace("with --stack", "with E2E_STACK");
    throw new StackOutputsError(`${message} (the suite reads E2E_OUTPUTS_FILE, default outputs.json, and E2E_STACK)`, { cause: error });
  }
}
