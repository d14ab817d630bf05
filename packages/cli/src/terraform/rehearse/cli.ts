import { parseArgs } from "node:util";
import { TerraformCommandError } from "../errors";
import { RehearsalNotRunError, RehearsalUsageError } from "./errors";
import { formatReport } from "./report";
import { BREAKS, findBreak, type Break } from "./breaks";
import { createCallLog, writeRecording } from "./record-calls";
import { rehearse } from "./run";
import { stackConfigOf } from "@effectively-once/local-cloud/stack";
import { Outcome } from "./table";

export const ExitCode = { Ok: 0, Failed: 1, Usage: 2, NotRun: 3 } as const;

const HELP = `Usage: npx effectively-once rehearse [options]

Synthesizes the stack, starts moto_server on 127.0.0.1 (free port), and with the real terraform CLI and
hashicorp/aws provider (from the filesystem mirror, offline): apply, plan again (must be empty), apply an
in-place change and compare it with what npx effectively-once plan predicts, then tear down as a user would (deletion
protection off, apply, destroy). Prints a table per resource, the drift and the moto gaps not rehearsed.
Leaves nothing running and nothing on disk.

  --no-change      skip the change rehearsal
  --record-calls F write every AWS call the provider made (by step: plan, apply, replan, change, teardown,
                   destroy) with the resource IAM authorizes it against, to F (the deployer policy's fixture)
  --break NAME     break test: merge a deliberate fault into the stack and report which layer catches it
                   (${BREAKS.map((b) => b.name).join(", ")}); exit 0 when it is caught and the teardown is clean
  -h, --help       this text

Environment: PIPELINE_STACK, PIPELINE_REGION, PIPELINE_NAME_PREFIX, TF_PROVIDER_MIRROR, TERRAFORM_BIN, MOTO_SERVER_BIN.
Exit codes: 0 passed, 1 failure or unexplained drift, 2 usage, 3 NOT RUN (moto_server, terraform or the mirror missing).
`;

export interface CliIo {
  readonly env: NodeJS.ProcessEnv;
  readonly stdout: (text: string) => void;
  readonly stderr: (line: string) => void;
}

/** A break test passes when the fault is caught somewhere (plan or apply) and the teardown still leaves nothing. */
async function runBreak(breakTest: Break, io: CliIo): Promise<number> {
  const header = `break test ${breakTest.name} (${breakTest.description})`;
  try {
    const report = await rehearse({ env: io.env, log: io.stderr, change: false, breakTest });
    io.stdout(formatReport(report));
    const teardownClean = report.teardown.destroyed && report.teardown.left.length === 0;
    const caught = report.resources.filter((r) => r.outcome === Outcome.Failed);
    const blocked = report.resources.filter((r) => r.outcome === Outcome.Blocked).length;
    if (caught.length === 0) {
      io.stdout(`✘ ${header}: NOT caught: plan and apply went through\n`);
      return ExitCode.Failed;
    }
    io.stdout(`${teardownClean ? "✔" : "✘"} ${header}: caught at terraform apply: ${caught.map((r) => `${r.address}: ${r.note}`).join("; ")}${blocked ? ` (${blocked} dependent resource(s) not created)` : ""}${teardownClean ? "" : " (but the teardown was not clean)"}\n`);
    return teardownClean ? ExitCode.Ok : ExitCode.Failed;
  } catch (error) {
    if (!(error instanceof TerraformCommandError)) throw error;
    const lines = error.stderr.trim().split("\n").filter((l) => /Error:|with /.test(l)).slice(0, 4).map((l) => l.trim());
    io.stdout(`✔ ${header}: caught at terraform ${error.args[0]} (nothing was created): ${lines.join(" ")}\n`);
    return ExitCode.Ok;
  }
}

export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    let values;
    try {
      values = parseArgs({ args: [...argv], options: { "no-change": { type: "boolean" }, "record-calls": { type: "string" }, break: { type: "string" }, help: { type: "boolean", short: "h" } }, strict: true }).values;
    } catch (error) {
      throw new RehearsalUsageError(`${(error as Error).message} (see --help)`);
    }
    if (values.help) {
      io.stdout(HELP);
      return ExitCode.Ok;
    }
    const breakTest = values.break === undefined ? undefined : findBreak(values.break);
    if (breakTest) return await runBreak(breakTest, io);
    const callLog = values["record-calls"] === undefined ? undefined : createCallLog();
    const report = await rehearse({ env: io.env, log: io.stderr, change: !values["no-change"], callLog });
    io.stdout(formatReport(report));
    if (report.failures.length) return ExitCode.Failed;
    if (callLog) {
      const config = stackConfigOf(io.env);
      writeRecording(values["record-calls"]!, { recordedWith: "terraform + hashicorp/aws (the stack's required_providers) against moto_server through the rehearsal's front", region: config.region, stack: config.stackName, calls: callLog.calls() });
      io.stdout(`recorded ${callLog.calls().length} distinct calls to ${values["record-calls"]}\n`);
    }
    return ExitCode.Ok;
  } catch (error) {
    if (error instanceof RehearsalNotRunError) {
      io.stderr(`rehearse: NOT RUN: ${error.message}`);
      return ExitCode.NotRun;
    }
    if (error instanceof RehearsalUsageError) {
      io.stderr(`rehearse: ${error.message}`);
      return ExitCode.Usage;
    }
    if (error instanceof TerraformCommandError) {
      io.stderr(`rehearse: FAILED: terraform ${error.args[0]} exited ${error.code}:\n${error.stderr.trim().split("\n").slice(-15).join("\n")}`);
      return ExitCode.Failed;
    }
    io.stderr(`rehearse: FAILED: ${error instanceof Error ? error.message : String(error)}`);
    return ExitCode.Failed;
  }
}
