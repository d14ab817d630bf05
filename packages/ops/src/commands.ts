import { businessKeyArgument, intOption, KEY_PART_OPTION, keyFilter, positionalArgs, reasonOption, SCAN_OPTIONS, str, type ParsedArgs } from "./cli-options";
import { listDlq, renderDlqList } from "./dlq-list";
import { redriveDlq } from "./dlq-redrive";
import { renderRedrive } from "./redrive-render";
import { NotFoundError, OpsError, UsageError } from "./errors";
import { ExitCode } from "./exit-codes";
import { dateWithRelative } from "./format";
import { getLedgerClaim, renderLedgerClaim, type LedgerClaim } from "./ledger-get";
import { releaseClaim, renderRelease } from "./ledger-release";
import { guardWarnings, readDlqGuard, readQueueGuards, renderGuards } from "./queue-guard";
import { readRedriveGuards, redriveWarnings, renderRedriveGuards } from "./redrive-guard";
import { renderTrace, traceKey } from "./trace";
import { readStatus } from "./status";
import { renderStatus } from "./status-render";
import type { OpsContext } from "./types";
import { safeJson } from "./safe-text";
import { OutputName } from "@effectively-once/contract";

/** What a command may use besides its context. */
export interface CommandIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly stdinIsTty: boolean;
  /** Asks a question on the terminal and resolves with the answer line. */
  readonly prompt: (question: string) => Promise<string>;
}

/**
 * One CLI command. `input` checks the arguments before anything touches the target, so a usage error is
 * reported as such (exit 2) even when the target is also wrong.
 */
export interface CommandSpec<I = unknown> {
  readonly name: string;
  readonly options: Record<string, { type: "string" | "boolean"; short?: string; multiple?: boolean }>;
  input(args: ParsedArgs): I;
  run(ctx: OpsContext, input: I, io: CommandIo): Promise<number>;
}

function command<I>(spec: CommandSpec<I>): CommandSpec<I> {
  return spec;
}

const json = safeJson;

function scanOptions(values: ParsedArgs["values"]) {
  return {
    max: intOption(values, "max", 1, 1000),
    holdSeconds: intOption(values, "hold-seconds", 1, 43_200),
    keyExpression: str(values["key-expression"]),
  };
}

function filterText(reason: string | undefined, key: string | undefined): string {
  return [reason && `--reason ${reason}`, key && `--key ${key}`].filter(Boolean).join(" ");
}

const dlqList = command({
  name: "dlq list",
  options: { ...SCAN_OPTIONS, reason: { type: "string" }, key: { type: "string" }, json: { type: "boolean" } },
  input({ values, positionals }) {
    positionalArgs(positionals, [], "dlq list");
    return { ...scanOptions(values), reason: reasonOption(values), key: keyFilter(values), json: values.json === true };
  },
  async run(ctx, { json: asJson, ...options }, io) {
    const { reason, key } = options;
    const guard = await readDlqGuard(ctx);
    for (const line of guardWarnings(guard)) io.stderr(line);
    const result = { ...(await listDlq(ctx, options)), guard };
    if (asJson) io.stdout(json(result));
    else if (result.messages.length > 0) io.stdout(renderDlqList(result));
    if (result.messages.length > 0) return ExitCode.Ok;
    throw new NotFoundError(
      result.scanned === 0 ? `the DLQ is empty (${result.queueUrl})` : `no DLQ message matches ${filterText(reason, key)} (${result.scanned} scanned)`,
    );
  },
});

const dlqRedrive = command({
  name: "dlq redrive",
  options: { ...SCAN_OPTIONS, reason: { type: "string" }, key: { type: "string" }, "dry-run": { type: "boolean" }, force: { type: "boolean" }, direct: { type: "boolean" }, json: { type: "boolean" } },
  input({ values, positionals }) {
    positionalArgs(positionals, [], "dlq redrive");
    return {
      ...scanOptions(values),
      reason: reasonOption(values),
      key: keyFilter(values),
      dryRun: values["dry-run"] === true,
      force: values.force === true,
      direct: values.direct === true,
      json: values.json === true,
    };
  },
  async run(ctx, { json: asJson, ...options }, io) {
    const { reason, key } = options;
    const result = await redriveDlq(ctx, {
      ...options,
      // Said first, once the arguments passed: an operator who reaches for a redrive should know whether SQS's own is open.
      beforeScan: async () => {
        for (const line of guardWarnings(await readDlqGuard(ctx))) io.stderr(line);
      },
      onNotice: (line) => io.stderr(`note: ${line}`),
      onWarning: (line) => io.stderr(line),
    });
    if (result.moved.length === 0 && result.failed.length === 0) {
      if (asJson) io.stdout(json(result));
      const filter = filterText(reason, key);
      throw new NotFoundError(
        result.scanned === 0
          ? `nothing to redrive: the DLQ is empty (${result.dlqUrl})`
          : `nothing to redrive: no DLQ message ${filter ? `matches ${filter}` : "can be moved"}${result.skipped.length || result.unsafe.length ? " without --force" : ""} (${result.scanned} scanned)`,
      );
    }
    io.stdout(asJson ? json(result) : renderRedrive(result));
    if (result.failed.length > 0) {
      throw new OpsError(`${result.failed.length} of ${result.failed.length + result.moved.length} messages did not move: ${result.failed[0].error}`);
    }
    return ExitCode.Ok;
  },
});

const dlqGuard = command({
  name: "dlq guard",
  options: { json: { type: "boolean" } },
  input({ values, positionals }) {
    positionalArgs(positionals, [], "dlq guard");
    return { json: values.json === true };
  },
  async run(ctx, { json: asJson }, io) {
    const guards = await readQueueGuards(ctx);
    const redrive = await readRedriveGuards(ctx);
    io.stdout(asJson ? json({ queues: guards, redrive }) : `${renderGuards(guards)}\n${renderRedriveGuards(redrive)}`);
    const open = [...guards.flatMap((g) => guardWarnings(g)), ...redriveWarnings(redrive)];
    for (const line of open) io.stderr(line);
    if (open.length > 0) throw new OpsError(`the queues let ${open.length} of SQS's own unguarded actions or move paths through (see the warnings above); deploy the stack with its default queue policies and redrive attributes, or accept the risk the props name`);
    return ExitCode.Ok;
  },
});

const ledgerGet = command({
  name: "ledger get",
  options: { ...KEY_PART_OPTION, operation: { type: "string" }, json: { type: "boolean" } },
  input({ values, positionals }) {
    const key = businessKeyArgument(values, positionals, "ledger get");
    return { key, operation: str(values.operation), json: values.json === true };
  },
  async run(ctx, { key, operation, json: asJson }, io) {
    const claim = await getLedgerClaim(ctx, { key, operation });
    if (!claim) {
      throw new NotFoundError(
        `no ledger item for key "${key}" (operation ${operation ?? String(ctx.outputs[OutputName.Operation])}): never claimed, released after a failure, or its retention ended (try \`trace '${key}'\`)`,
      );
    }
    io.stdout(asJson ? json(claim) : renderLedgerClaim(claim, ctx.now()));
    return ExitCode.Ok;
  },
});

const ledgerRelease = command({
  name: "ledger release",
  options: { ...KEY_PART_OPTION, operation: { type: "string" }, yes: { type: "boolean", short: "y" } },
  input({ values, positionals }) {
    const key = businessKeyArgument(values, positionals, "ledger release");
    return { key, operation: str(values.operation), yes: values.yes === true };
  },
  async run(ctx, { key, operation, yes }, io) {
    const result = await releaseClaim(ctx, {
      key,
      operation,
      confirm: async (claim) => {
        if (yes) return true;
        if (!io.stdinIsTty) throw new UsageError("refusing to prompt: stdin is not a terminal; pass --yes to release without asking");
        io.stderr(`${renderLedgerClaim(claim, ctx.now())}\n${liveLeaseWarning(claim, ctx.now())}`);
        const answer = await io.prompt(`Release the IN_PROGRESS claim on "${claim.key}"? [y/N] `);
        return /^y(es)?$/i.test(answer.trim());
      },
    });
    if (!result.released) throw new OpsError(`not released: the claim on "${key}" is unchanged`);
    io.stdout(renderRelease(result));
    return ExitCode.Ok;
  },
});

function liveLeaseWarning(claim: LedgerClaim, nowMs: number): string {
  if (claim.leaseExpired || claim.leaseExpiresAt === undefined) return "The lease has run out: the next delivery would take the claim over anyway.";
  return (
    `Warning: the lease runs until ${dateWithRelative(claim.leaseExpiresAt * 1000, nowMs)}: a worker may still be processing this message. ` +
    "Releasing lets another message claim the key meanwhile (the function's Powertools record still guards the effect)."
  );
}

const trace = command({
  name: "trace",
  options: { ...SCAN_OPTIONS, ...KEY_PART_OPTION, operation: { type: "string" }, json: { type: "boolean" } },
  input({ values, positionals }) {
    const key = businessKeyArgument(values, positionals, "trace");
    return { ...scanOptions(values), key, operation: str(values.operation), json: values.json === true };
  },
  async run(ctx, { json: asJson, ...options }, io) {
    const result = await traceKey(ctx, options);
    if (asJson) io.stdout(json(result));
    if (!result.known) throw new NotFoundError(result.verdict[0]);
    if (!asJson) io.stdout(renderTrace(result, ctx.now()));
    return ExitCode.Ok;
  },
});

const status = command({
  name: "status",
  options: { ...SCAN_OPTIONS, "scan-items": { type: "string" }, json: { type: "boolean" } },
  input({ values, positionals }) {
    positionalArgs(positionals, [], "status");
    const { max, ...scan } = scanOptions(values);
    return { ...scan, maxDlqMessages: max, maxItems: intOption(values, "scan-items", 1, 10_000_000), json: values.json === true };
  },
  async run(ctx, { json: asJson, ...options }, io) {
    const result = await readStatus(ctx, ctx.cloudwatch, options);
    io.stdout(asJson ? json(result) : renderStatus(result, ctx.now(), ctx.targetArgs ?? []));
    // Like \`dlq guard\`: exit 1 when something needs a person, so a script or a cron job can page on it.
    return result.attention.length === 0 ? ExitCode.Ok : ExitCode.Failure;
  },
});

/** Commands by their words, e.g. "dlq list". */
export const COMMANDS: Readonly<Record<string, CommandSpec>> = Object.fromEntries(
  ([status, dlqList, dlqRedrive, dlqGuard, ledgerGet, ledgerRelease, trace] as CommandSpec<never>[]).map((c) => [c.name, c as unknown as CommandSpec]),
);
/** Words that take a subcommand. */
export const GROUPS: Readonly<Record<string, readonly string[]>> = { dlq: ["list", "redrive", "guard"], ledger: ["get", "release"] };
