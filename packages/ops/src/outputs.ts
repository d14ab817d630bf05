import { TargetError } from "./errors";
import type { OpsContext } from "./types";
import { OutputName } from "@effectively-once/contract";

/** True when the stack has the output as a non-empty string. */
export function hasOutput(ctx: Pick<OpsContext, "outputs">, name: OutputName): boolean {
  const value = ctx.outputs[name];
  return typeof value === "string" && value.length > 0;
}

/** A non-empty string output, or a TargetError naming the output and where it was looked for. */
export function requireOutput(ctx: Pick<OpsContext, "outputs" | "targetLabel">, name: OutputName): string {
  const value = ctx.outputs[name];
  if (hasOutput(ctx, name)) return value as string;
  const found = value === undefined ? "has no" : `has an unusable (${JSON.stringify(value)})`;
  throw new TargetError(`${ctx.targetLabel} ${found} "${name}" output: deploy the stack again, or pick the right one with --stack`);
}

/**
 * A duration output in whole seconds. Terraform writes numbers (`terraform output -json`, `--outputs-file`);
 * a numeric string is accepted too, for hand-written outputs files.
 */
export function requireSecondsOutput(ctx: Pick<OpsContext, "outputs" | "targetLabel">, name: OutputName): number {
  const value = ctx.outputs[name];
  const seconds = typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof seconds === "number" && Number.isSafeInteger(seconds) && seconds > 0) return seconds;
  const found = value === undefined ? "has no" : `has an unusable (${JSON.stringify(value)})`;
  throw new TargetError(`${ctx.targetLabel} ${found} "${name}" output (whole seconds): deploy the stack again with this version, or pick the right one with --stack`);
}

/** The operation to use: the option, else the stack's `operation` output. */
export function operationOf(ctx: Pick<OpsContext, "outputs" | "targetLabel">, option: string | undefined): string {
  return option ?? requireOutput(ctx, OutputName.Operation);
}
