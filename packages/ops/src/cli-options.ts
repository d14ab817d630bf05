import { parseArgs, type ParseArgsConfig } from "node:util";
import { businessKeyFromOperator } from "@effectively-once/contract";
import { UsageError } from "./errors";
import type { TargetOptions } from "./target";
import { DlqReason } from "@effectively-once/contract";

type Options = NonNullable<ParseArgsConfig["options"]>;

export const TARGET_OPTIONS = {
  local: { type: "boolean" },
  state: { type: "string" },
  "outputs-file": { type: "string" },
  stack: { type: "string" },
  region: { type: "string" },
  "sqs-endpoint": { type: "string" },
  "dynamodb-endpoint": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const satisfies Options;

export const SCAN_OPTIONS = {
  max: { type: "string" },
  "key-expression": { type: "string" },
  "hold-seconds": { type: "string" },
} as const satisfies Options;

export type Values = Record<string, string | boolean | string[] | undefined>;

export interface ParsedArgs {
  readonly values: Values;
  readonly positionals: string[];
}

/** parseArgs, strict, with its errors turned into one-line usage errors. */
export function parse(args: string[], options: Options, command: string): ParsedArgs {
  try {
    const { values, positionals } = parseArgs({ args, options, allowPositionals: true, strict: true });
    return { values: values as Values, positionals };
  } catch (error) {
    // Node's unknown-option text goes on about '--' for positionals: the first sentence says it all.
    const message = (error as Error).message.split("\n")[0].split(". ")[0].replace(/\.$/, "");
    throw new UsageError(`${command}: ${message} (see \`${command} --help\`)`, { cause: error });
  }
}

export function targetOptions(values: Values): TargetOptions {
  return {
    local: values.local === true,
    stateFile: str(values.state),
    outputsFile: str(values["outputs-file"]),
    stack: str(values.stack),
    region: str(values.region),
    sqsEndpoint: str(values["sqs-endpoint"]),
    dynamodbEndpoint: str(values["dynamodb-endpoint"]),
  };
}

export function str(value: string | boolean | string[] | undefined): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** `--part a --part b`: a business key given by its parts, in order. */
export const KEY_PART_OPTION = { part: { type: "string", multiple: true } } as const satisfies Options;

/**
 * The business key a command names: its canonical text as the DLQ listing and the ledger show it
 * (`'["t1","o-42"]'`), or its parts (`--part t1 --part o-42`); always returned as the ledger's canonical text.
 */
export function businessKeyArgument(values: Values, positionals: string[], command: string): string {
  const parts = Array.isArray(values.part) ? values.part : [];
  if (parts.length > 0) {
    positionalArgs(positionals, [], command);
    return businessKeyFromOperator({ parts });
  }
  const [key] = positionalArgs(positionals, ["key"], command);
  return businessKeyFromOperator({ key });
}

/** The `--key` filter, in canonical form; undefined when absent. */
export function keyFilter(values: Values): string | undefined {
  const key = str(values.key);
  return key === undefined ? undefined : businessKeyFromOperator({ key });
}

/** A whole number option within [min, max], or undefined when absent. */
export function intOption(values: Values, name: string, min: number, max: number): number | undefined {
  const raw = str(values[name]);
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(n) || n < min || n > max) {
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
  }
  return n;
}

const REASONS: readonly string[] = Object.values(DlqReason);

export function reasonOption(values: Values): string | undefined {
  const reason = str(values.reason);
  if (reason !== undefined && !REASONS.includes(reason)) {
    throw new UsageError(`--reason "${reason}" is not a DLQ reason: use one of ${REASONS.join(", ")}`);
  }
  return reason;
}

/** Exactly the positionals a command takes, each non-empty. */
export function positionalArgs(positionals: string[], names: readonly string[], command: string): string[] {
  if (positionals.length < names.length) {
    throw new UsageError(`${command}: missing <${names[positionals.length]}> (usage: ${command} ${names.map((n) => `<${n}>`).join(" ")} …)`);
  }
  if (positionals.length > names.length) {
    throw new UsageError(`${command}: unexpected argument "${positionals[names.length]}" (see \`${command} --help\`)`);
  }
  positionals.forEach((value, i) => {
    if (value.trim() === "") throw new UsageError(`${command}: <${names[i]}> is empty`);
  });
  return positionals;
}
