import { TargetError } from "./errors";
import type { OpsContext, OutputName } from "./types";

/** A non-empty string output, or a TargetError naming the output and where it was looked for. */
export function requireOutput(ctx: Pick<OpsContext, "outputs" | "targetLabel">, name: OutputName): string {
  const value = ctx.outputs[name];
  if (typeof value === "string" && value.length > 0) return value;
  const found = value === undefined ? "has no" : `has an unusable (${JSON.stringify(value)})`;
  throw new TargetError(`${ctx.targetLabel} ${found} "${name}" output: deploy the stack again, or pick the right one with --stack`);
}

/** The operation to use: the option, else the stack's `operation` output. */
export function operationOf(ctx: Pick<OpsContext, "outputs" | "targetLabel">, option: string | undefined): string {
  return option ?? requireOutput(ctx, "operation");
}
