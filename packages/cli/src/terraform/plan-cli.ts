import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { confirmAwsIdentity, detectAwsCredentials } from "./credentials";
import { readEnvFile } from "./env-file";
import { PlanInputError, TerraformCommandError, TerraformToolError } from "./errors";
import { MIRROR_ENV, TERRAFORM_BIN_ENV } from "./offline";
import { isPlanJson } from "./plan-json";
import { runPlanReview } from "./plan-review";
import { formatDuration } from "./progress";
import { loadBaseline, baselineResources } from "./review/baseline";
import { buildReview } from "./review/build";
import { renderMarkdown } from "./review/markdown";
import { commentBody, GITHUB_COMMENT_LIMIT } from "./review/comment";
import { ActionBasis, ReviewMode, Severity, type PlanReview } from "./review/types";
import { readProject } from "../project/cdktf-project";
import { UsageError } from "../project/errors";

const HELP = `Usage: npx effectively-once plan [options]

Synthesizes the stack with the project's own command (cdktf.json's "app", in the current folder), runs
terraform init, plan -out and show -json in <output>/stacks/<stack>, and prints a review of the plan as
Markdown (for a pull-request comment). Writes review.md, review.json and plan.json (the raw 'terraform show
-json') to the report directory. Without a cdktf.json, synthesizes the app PIPELINE_APP names in process.

Mode (default: online when AWS credentials are configured, offline otherwise):
  --offline            no AWS account, no network: provider from the filesystem mirror, placeholder
                       credentials, temporary state; every resource starts as a create
  --online             your credentials and the configured backend: the real plan

Comparing two configurations:
  --against FILE       compare with a previous plan: a saved 'terraform show -json' output (e.g. the
                       plan.json of an earlier run) or an earlier review.json. Offline, a plan JSON is
                       turned into a state and this configuration is planned against it, so Terraform
                       itself reports updates and replacements
  --base-env FILE      compare with the configuration given by FILE (KEY=value lines: the variables
                       your synth command reads), synthesized with them and planned offline in the
                       same run
  --head-env FILE      variables applied to this run's configuration (default: the current environment)

Stack:
  --stack NAME         the stack to review when the synth writes several (<output>/stacks/NAME)
  --synth-command CMD  the command that synthesizes the project (default: cdktf.json's "app")

Other:
  --outdir DIR         synth output directory (default: cdktf.json's "output", else cdktf.out)
  --report-dir DIR     where the report files go (default: <outdir>/plan-review)
  --from-json FILE     review a saved 'terraform show -json' output; runs neither synth nor terraform
  --fail-on-risk       exit with code 2 when a high-severity risk is flagged
  --comment FILE       also write the review as a pull-request comment body: cut at the last line that
                       fits --comment-limit, with a note pointing at the whole review (--artifact-url)
  --comment-limit N    the host's comment limit in characters (default ${GITHUB_COMMENT_LIMIT}, GitHub's)
  --artifact-url URL   where CI keeps the whole review (the note of a cut comment names it)
  --json               print the review as JSON (review.json's content) on stdout instead of the Markdown
  --quiet              do not print the Markdown on stdout
  -h, --help           this text

Environment: PIPELINE_APP, PIPELINE_STACK, PIPELINE_REGION, PIPELINE_NAME_PREFIX (the app and its stack, when no cdktf.json names the synth command),
${MIRROR_ENV} (provider mirror, default: auto-detected, e.g. /opt/tf-plugins), ${TERRAFORM_BIN_ENV} (terraform binary).
Exit codes: 0 reviewed, 1 error, 2 high-severity risk with --fail-on-risk.
`;

export interface CliIo {
  readonly env: NodeJS.ProcessEnv;
  readonly stdout: (text: string) => void;
  readonly stderr: (line: string) => void;
}

const OPTIONS = {
  offline: { type: "boolean" },
  online: { type: "boolean" },
  against: { type: "string" },
  "base-env": { type: "string" },
  "head-env": { type: "string" },
  outdir: { type: "string" },
  "report-dir": { type: "string" },
  "from-json": { type: "string" },
  stack: { type: "string" },
  "synth-command": { type: "string" },
  "fail-on-risk": { type: "boolean" },
  quiet: { type: "boolean" },
  json: { type: "boolean" },
  comment: { type: "string" },
  "comment-limit": { type: "string" },
  "artifact-url": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

function parse(argv: readonly string[]) {
  try {
    return parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: false, strict: true }).values;
  } catch (error) {
    throw new PlanInputError(`${(error as Error).message} (see --help)`, { cause: error });
  }
}

/** One-line errors: the message, and for a terraform failure the last lines of what it printed. */
export function describeError(error: unknown): string {
  if (error instanceof TerraformCommandError) {
    const tail = error.stderr
      .trim()
      .split("\n")
      .filter((line) => line.trim() && !/^[╷╵│]\s*$/.test(line))
      .slice(-8)
      .map((line) => `    ${line.replace(/^│\s?/, "")}`);
    return [`plan: terraform ${error.args[0]} failed (exit ${error.code}); its last lines:`, ...tail].join("\n");
  }
  if (error instanceof TerraformToolError || error instanceof UsageError) return `plan: ${error.message}`;
  return `plan: ${error instanceof Error ? error.message : String(error)}`;
}

function highRisk(review: PlanReview): boolean {
  return review.risks.some((r) => r.severity === Severity.High);
}

function resolveMode(values: ReturnType<typeof parse>, env: NodeJS.ProcessEnv, log: (line: string) => void): ReviewMode {
  if (values.offline && values.online) throw new PlanInputError("--offline and --online exclude each other: pick one");
  if (values.offline) return ReviewMode.Offline;
  if (values.online) return ReviewMode.Online;
  const source = detectAwsCredentials(env);
  log(source ? `plan: AWS credentials found (${source}): online plan; pass --offline to plan without AWS` : "plan: no AWS credentials configured: offline plan (pass --online to force)");
  return source ? ReviewMode.Online : ReviewMode.Offline;
}

/** `npx effectively-once plan`: resolves with the exit code. */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  const started = performance.now();
  try {
    const values = parse(argv);
    if (values.help) {
      io.stdout(HELP);
      return 0;
    }
    // Checked before any synth or plan: a bad limit must not cost a plan run.
    const commentLimit = values["comment-limit"] === undefined ? GITHUB_COMMENT_LIMIT : Number(values["comment-limit"]);
    if (!Number.isInteger(commentLimit) || commentLimit < 1000) throw new PlanInputError(`--comment-limit ${values["comment-limit"]}: give the host's limit in characters, a whole number of at least 1000 (GitHub: ${GITHUB_COMMENT_LIMIT})`);
    const project = values["from-json"] ? undefined : readProject(process.cwd(), values["synth-command"]);
    if (values["synth-command"] && !project) throw new PlanInputError("--synth-command needs a cdktf.json in the current folder (its \"output\" is where the stacks go)");
    const outdir = resolve(values.outdir ?? project?.output ?? "cdktf.out");
    const reportDir = resolve(values["report-dir"] ?? join(outdir, "plan-review"));
    const against = values.against ? loadBaseline(values.against) : undefined;
    let review: PlanReview;
    let markdown: string;
    if (values["from-json"]) {
      const file = values["from-json"];
      let plan: unknown;
      try {
        plan = JSON.parse(readFileSync(file, "utf8"));
      } catch (error) {
        throw new PlanInputError(`--from-json ${file}: cannot read it as JSON (${(error as Error).message})`, { cause: error });
      }
      if (!isPlanJson(plan)) throw new PlanInputError(`--from-json ${file}: not a 'terraform show -json' plan output (no format_version/resource_changes)`);
      review = buildReview(plan, {
        basis: ActionBasis.SavedPlan,
        baseline: against ? { label: against.label, resources: baselineResources(against) } : undefined,
      });
      markdown = renderMarkdown(review);
    } else {
      const headEnv = values["head-env"] ? { ...io.env, ...readEnvFile(values["head-env"]) } : io.env;
      const baseEnv = values["base-env"] ? { ...io.env, ...readEnvFile(values["base-env"]) } : undefined;
      const mode = resolveMode(values, headEnv, io.stderr);
      if (mode === ReviewMode.Online) {
        try {
          io.stderr(`plan: online, credentials from ${await confirmAwsIdentity(headEnv)}`);
        } catch (error) {
          throw new PlanInputError((error as Error).message, { cause: error });
        }
      }
      const result = await runPlanReview({ mode, outdir, reportDir, env: headEnv, against, baseEnv, project, stack: values.stack, log: io.stderr });
      review = result.review;
      markdown = result.markdown;
      io.stderr(`plan: wrote ${result.files.markdown}, ${result.files.json} and ${result.files.plan}`);
    }
    if (values.comment) {
      const body = commentBody(markdown, { limit: commentLimit, artifact: values["artifact-url"] });
      writeFileSync(values.comment, body);
      io.stderr(`plan: wrote ${values.comment} (${body.length === markdown.length ? "the whole review" : `cut to ${body.length} of ${markdown.length} characters`})`);
    }
    if (values.json) io.stdout(`${JSON.stringify(review, null, 2)}\n`);
    else if (!values.quiet) io.stdout(markdown);
    const s = review.summary;
    io.stderr(
      `plan: ${s.create} create, ${s.update} update, ${s.replace} replace, ${s.destroy} destroy; ${review.risks.length} risk flag(s); done in ${formatDuration(performance.now() - started)}`,
    );
    return values["fail-on-risk"] && highRisk(review) ? 2 : 0;
  } catch (error) {
    io.stderr(describeError(error));
    return 1;
  }
}
