import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { loadCapacitySettings } from "../capacity/load-settings";
import { loadStack, stackRegion } from "../deployer/load-stack";
import { awsReader, type AccountReader, type ReaderOptions } from "./aws";
import { plannedCalls, stackFunctions } from "./calls";
import { runChecks } from "./checks";
import { classifyCallError, ExitCode, PreflightStop } from "./errors";
import { namesInState } from "./names";
import { planAt } from "./quota-checks";
import { judgeRegion, nearRegions } from "./regions";

const PREFLIGHT_HELP = `Usage: npx effectively-once preflight [options]

Checks what only the AWS account knows against the synthesized stack, before cdktf deploy: the region (and that
EventBridge Pipes answers there), every name the stack creates (none may exist already), Lambda's concurrency and
memory, the applied quotas of Lambda, Step Functions, SQS, Pipes and DynamoDB against the capacity plan, IAM's role
and policy-size quotas, DynamoDB's table quota, and the caller's own rights against the deployer policy
(iam:SimulatePrincipalPolicy). Read-only calls only (Get/List/Describe/Simulate), with the default AWS credential chain.

  --stack-file F   the synthesized stack; default: synthesize PIPELINE_APP
  --region R       default: the provider's region in the stack, else AWS_REGION; must equal the provider's when it has one
  --account ID     fail unless the credentials are for this account
  --rate N         judge every listed quota against the capacity plan at N messages/s (npx effectively-once capacity)
  --headroom R     margin kept under every quota with --rate (default 0.2)
  --state F        the stack's terraform.tfstate: existing names it holds are the stack's own (a re-deploy)
  --dry-run        print every AWS call it would make, and make none
  --json           print the result as one JSON document on stdout instead of the report: ok, failed, region and
                   the sections with their findings (level ok|warn|fail|info, text); with --dry-run, the calls. A run
                   that stops (exit 2-7) prints its one line on stderr and nothing on stdout
  -h, --help       this text

Exit codes: 0 nothing blocks the deploy, 1 a check failed, 2 usage, 3 no credentials, 4 bad region,
5 network error, 6 the credentials may not make a read-only call, 7 an unexpected error (docs/deploy.md).
`;

export interface PreflightIo {
  readonly env: NodeJS.ProcessEnv;
  readonly stdout: (text: string) => void;
  /** Where a stop's line goes with --json (stdout keeps the document only); without it, the report's stdout. */
  readonly stderr?: (line: string) => void;
  /** Tests give a reader on a local stand-in; otherwise the AWS SDK's. */
  readonly reader?: (options: ReaderOptions) => AccountReader;
}

const MARK = { ok: "✔", warn: "!", fail: "✘", info: "·" } as const;

/** The region to check: --region, else the provider's literal, else AWS_REGION; refused when it cannot be the stack's. */
function regionOf(flag: string | undefined, literal: string | undefined, env: NodeJS.ProcessEnv): string {
  if (flag !== undefined && literal !== undefined && flag !== literal) {
    throw new PreflightStop(ExitCode.BadRegion, `preflight: --region ${flag} is not the stack's region: its provider deploys to ${literal}. Fix: drop --region, or synthesize the stack for ${flag} (PIPELINE_REGION=${flag}).`);
  }
  const region = flag ?? literal ?? env.AWS_REGION;
  if (!region) throw new PreflightStop(ExitCode.BadRegion, "preflight: no region: the stack's provider takes it from the environment. Fix: pass --region, or set AWS_REGION.");
  const verdict = judgeRegion(region);
  if (verdict.kind === "malformed") {
    const near = nearRegions(region);
    throw new PreflightStop(ExitCode.BadRegion, `preflight: ${verdict.why}. Fix: pass a region where the pipeline can run${near.length ? `, e.g. ${near.join(", ")}` : ""}.`);
  }
  return region;
}

function readState(file: string): Set<string> {
  try {
    return namesInState(JSON.parse(readFileSync(file, "utf8")));
  } catch (error) {
    throw new PreflightStop(ExitCode.Usage, `preflight: --state ${file}: ${(error as Error).message}. Fix: pass the stack's terraform.tfstate (cdktf.out/stacks/<stack>/terraform.<stack>.tfstate with the local backend).`, { cause: error });
  }
}

export async function runPreflightCli(argv: readonly string[], io: PreflightIo): Promise<number> {
  // A stop is one line: on stderr with --json (asked for even on a line that does not parse), so that stdout is the
  // document or nothing.
  const stopLine = (text: string) => (argv.includes("--json") && io.stderr ? io.stderr(text.replace(/\n$/, "")) : io.stdout(text));
  let values;
  try {
    values = parseArgs({
      args: [...argv],
      options: { "stack-file": { type: "string" }, region: { type: "string" }, account: { type: "string" }, rate: { type: "string" }, headroom: { type: "string" }, state: { type: "string" }, "dry-run": { type: "boolean" }, json: { type: "boolean" }, help: { type: "boolean", short: "h" } },
      strict: true,
    }).values;
  } catch (error) {
    stopLine(`preflight: ${(error as Error).message} (see --help)\n`);
    return ExitCode.Usage;
  }
  if (values.help) {
    io.stdout(PREFLIGHT_HELP);
    return ExitCode.Ok;
  }
  const json = values.json ?? false;
  const rate = values.rate === undefined ? undefined : Number(values.rate);
  const headroom = values.headroom === undefined ? 0.2 : Number(values.headroom);
  if ((rate !== undefined && !(rate > 0)) || !(headroom >= 0)) {
    stopLine(`preflight: --rate must be a positive number of messages per second and --headroom a fraction ≥ 0 (got ${values.rate}, ${values.headroom})\n`);
    return ExitCode.Usage;
  }
  let step = "reading the stack";
  try {
    let stack;
    try {
      stack = loadStack(values["stack-file"], io.env);
    } catch (error) {
      throw new PreflightStop(ExitCode.Usage, `preflight: cannot read the stack: ${(error as Error).message}. Fix: pass --stack-file cdktf.out/stacks/<stack>/cdk.tf.json, or set PIPELINE_APP.`, { cause: error });
    }
    const region = regionOf(values.region, stackRegion(stack), io.env);
    if (values["dry-run"] && json) {
      io.stdout(`${JSON.stringify({ ok: true, dryRun: true, region, calls: plannedCalls(stack).map((c) => ({ action: c.action, params: c.params, why: c.why })) }, null, 2)}\n`);
      return ExitCode.Ok;
    }
    if (values["dry-run"]) {
      io.stdout(`preflight --dry-run: the read-only calls it makes in ${region} (nothing was called):\n`);
      for (const c of plannedCalls(stack)) io.stdout(`  ${c.action}${Object.keys(c.params).length ? ` ${JSON.stringify(c.params)}` : ""}: ${c.why}\n`);
      return ExitCode.Ok;
    }
    const owned = values.state === undefined ? undefined : readState(values.state);
    const plan = rate === undefined ? undefined : planAt(loadCapacitySettings(values["stack-file"]), rate, headroom);
    step = `asking AWS in ${region}`;
    const sections = await runChecks((io.reader ?? awsReader)({ region }), { stack, region, functions: stackFunctions(stack), expectedAccount: values.account, owned, plan });
    const failed = sections.flatMap((s) => s.findings).filter((f) => f.level === "fail").length;
    if (json) {
      io.stdout(`${JSON.stringify({ ok: failed === 0, failed, region, sections }, null, 2)}\n`);
      return failed ? ExitCode.CheckFailed : ExitCode.Ok;
    }
    io.stdout(`preflight in ${region}:\n`);
    for (const s of sections) io.stdout(`${s.title}\n${s.findings.map((f) => `  ${MARK[f.level]} ${f.text}`).join("\n")}\n`);
    io.stdout(failed ? `✘ ${failed} check(s) would make the deploy fail or do damage\n` : "✔ nothing the account knows blocks the deploy\n");
    return failed ? ExitCode.CheckFailed : ExitCode.Ok;
  } catch (error) {
    const stop = error instanceof PreflightStop ? error : classifyCallError(error, step);
    if (stop) {
      stopLine(`${stop.message}\n`);
      return stop.code;
    }
    stopLine(`preflight: unexpected error while ${step}: ${(error as Error).stack ?? String(error)}\n`);
    return ExitCode.Unexpected;
  }
}
