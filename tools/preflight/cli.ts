import { parseArgs } from "node:util";
import { loadStack, stackRegion } from "../deployer/load-stack";
import { awsReader, type AccountReader, type ReaderOptions } from "./aws";
import { plannedCalls, stackFunctions } from "./calls";
import { runChecks } from "./checks";

const PREFLIGHT_HELP = `Usage: npm run preflight -- [options]

Checks what only the AWS account knows against the synthesized stack, before cdktf deploy: the Lambda concurrency
left unreserved after the function's reservation (AWS keeps at least 100), the account's concurrency and invocation
rate against what the capacity plan assumes, and the applied quotas of Lambda, Step Functions, SQS and Pipes.
Read-only calls only (Get/List), with the default AWS credential chain.

  --stack-file F   the synthesized stack; default: synthesize PIPELINE_APP
  --region R       default: the provider's region in the stack, else AWS_REGION
  --account ID     fail unless the credentials are for this account
  --dry-run        print every AWS call it would make, and make none
  -h, --help       this text

Exit codes: 0 nothing blocks the deploy, 1 a check failed, 2 usage.
`;

export interface PreflightIo {
  readonly env: NodeJS.ProcessEnv;
  readonly stdout: (text: string) => void;
  /** Tests give a reader on a local stand-in; otherwise the AWS SDK's. */
  readonly reader?: (options: ReaderOptions) => AccountReader;
}

export async function runPreflightCli(argv: readonly string[], io: PreflightIo): Promise<number> {
  let values;
  try {
    values = parseArgs({ args: [...argv], options: { "stack-file": { type: "string" }, region: { type: "string" }, account: { type: "string" }, "dry-run": { type: "boolean" }, help: { type: "boolean", short: "h" } }, strict: true }).values;
  } catch (error) {
    io.stdout(`preflight: ${(error as Error).message} (see --help)\n`);
    return 2;
  }
  if (values.help) {
    io.stdout(PREFLIGHT_HELP);
    return 0;
  }
  const stack = loadStack(values["stack-file"], io.env);
  const region = values.region ?? stackRegion(stack) ?? io.env.AWS_REGION;
  if (!region) {
    io.stdout("preflight: no region: pass --region (the stack's provider takes it from the environment)\n");
    return 2;
  }
  const calls = plannedCalls(stack);
  if (values["dry-run"]) {
    io.stdout(`preflight --dry-run: the read-only calls it makes in ${region} (nothing was called):\n`);
    for (const c of calls) io.stdout(`  ${c.action}${Object.keys(c.params).length ? ` ${JSON.stringify(c.params)}` : ""}: ${c.why}\n`);
    return 0;
  }
  const findings = await runChecks((io.reader ?? awsReader)({ region }), stackFunctions(stack), values.account);
  const mark = { ok: "✔", warn: "!", fail: "✘" } as const;
  io.stdout(`preflight in ${region}:\n${findings.map((f) => `  ${mark[f.level]} ${f.text}`).join("\n")}\n`);
  const failed = findings.filter((f) => f.level === "fail").length;
  io.stdout(failed ? `✘ ${failed} check(s) would make the deploy fail\n` : "✔ nothing the account knows blocks the deploy\n");
  return failed ? 1 : 0;
}
