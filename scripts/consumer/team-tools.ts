// The consumer check's part for @effectively-once/cli: from a team's installed app, outside the repository, the
// commands a team runs on its own stack, through `npx effectively-once`, each judged by its exit code and output.
import { execFile } from "node:child_process";

export interface Cli {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** What a team app's stack lets the tools do here: the offline mirror holds hashicorp/aws 5.100.0 only. */
export interface ToolExpectations {
  /** Offline plan review passes (provider mirrored), or stops naming the provider it lacks (e.g. "hashicorp/aws 6."). */
  readonly plan: { readonly reviewed: true } | { readonly missingProvider: string };
  /** verify --target local needs the app's stack.ts (a PipelineApp) and profile.ts. */
  readonly runsOnLocalCloud: boolean;
  /** A short soak of the app folder (`--app`) whose stack holds an EffectJournalTable: it counts applications there. */
  readonly soakApp?: string;
}

/** The soak's JSON figures the check reads (packages/cli/src/load/soak-report.ts writes them). */
interface SoakFigures {
  readonly ok: boolean;
  readonly figures: { readonly sent: number; readonly uniqueKeys: number; readonly applied: number; readonly lost: number; readonly doubleApplied: number; readonly quarantinedByReason: Record<string, number> };
}

/**
 * A short soak: 40 messages at 20 per second (2 s of sending) under the realistic faults, with 5 % conflicts and 5 %
 * refused messages so that the profile's `conflict` and `rejected` write some (seed "soak": 2 of each).
 */
const SOAK_ARGS = ["--messages", "40", "--rate", "20", "--conflicts", "0.05", "--rejected", "0.05", "--json", "--no-progress"];

function cli(dir: string, env: NodeJS.ProcessEnv, args: readonly string[]): Promise<Cli> {
  return new Promise((resolve) => {
    execFile("npx", ["--no-install", "effectively-once", ...args], { cwd: dir, env, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: unknown }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

function expect(what: string, run: Cli, ok: (run: Cli) => boolean): Cli {
  if (!ok(run)) throw new Error(`effectively-once ${what}: exit ${run.code}\n--- stdout ---\n${run.stdout.slice(0, 4000)}\n--- stderr ---\n${run.stderr.slice(-4000)}`);
  return run;
}

/** Runs the team's commands in `dir`; `step` times and prints each. Throws on the first that does not hold. */
export async function checkTeamTools(dir: string, env: NodeJS.ProcessEnv, expected: ToolExpectations, step: <T>(what: string, run: () => Promise<T>) => Promise<T>): Promise<void> {
  const help = await step("npx effectively-once --help", async () => expect("--help", await cli(dir, env, ["--help"]), (r) => r.code === 0 && /^ {2}plan /m.test(r.stdout)));
  console.log(`  ${help.stdout.split("\n")[0]}`);
  if ("reviewed" in expected.plan) {
    const plan = await step("plan --offline --fail-on-risk (synthesized with cdktf.json's app)", async () =>
      expect("plan", await cli(dir, env, ["plan", "--offline", "--fail-on-risk", "--quiet"]), (r) => r.code === 0 && /\d+ create/.test(r.stderr)),
    );
    console.log(`  ${plan.stderr.trim().split("\n").at(-1)}`);
  } else {
    const { missingProvider } = expected.plan;
    const plan = await step(`plan --offline stops: the mirror lacks ${missingProvider}`, async () =>
      expect("plan", await cli(dir, env, ["plan", "--offline", "--fail-on-risk", "--quiet"]), (r) => r.code === 1 && r.stdout === "" && r.stderr.trim().split("\n").at(-1)!.startsWith("plan: ") && r.stderr.includes(missingProvider)),
    );
    console.log(`  ${plan.stderr.trim().split("\n").at(-1)!.slice(0, 200)}…`);
  }
  const policy = await step("deployer-policy", async () => expect("deployer-policy", await cli(dir, env, ["deployer-policy"]), (r) => r.code === 0 && r.stdout.includes('"Statement"')));
  const { deploy } = JSON.parse(policy.stdout) as { deploy: { Statement: unknown[] }[] };
  console.log(`  deploy: ${deploy.length} managed policy(ies), ${deploy.reduce((n, p) => n + p.Statement.length, 0)} statements`);
  const capacity = await step("capacity --rate 50 --json", async () => expect("capacity", await cli(dir, env, ["capacity", "--rate", "50", "--json"]), (r) => r.code === 0 && r.stdout.trim().startsWith("{")));
  console.log(`  ${Object.keys(JSON.parse(capacity.stdout) as object).length} top-level fields`);
  const cost = await step("cost --json", async () => expect("cost", await cli(dir, env, ["cost", "--json"]), (r) => r.code === 0));
  console.log(`  batch size ${(JSON.parse(cost.stdout) as { config: { pipe: { batchSize: number } } }).config.pipe.batchSize}`);
  const preflight = await step("preflight --dry-run --json (the read-only calls, none made)", async () =>
    expect("preflight", await cli(dir, env, ["preflight", "--dry-run", "--json"]), (r) => r.code === 0 && (JSON.parse(r.stdout) as { calls: unknown[] }).calls.length > 0),
  );
  console.log(`  ${(JSON.parse(preflight.stdout) as { calls: unknown[] }).calls.length} calls listed`);
  await step("a bad flag: cost --pipeline nope (one line, exit 2)", async () =>
    expect("cost --pipeline nope", await cli(dir, env, ["cost", "--pipeline", "nope"]), (r) => r.code === 2 && r.stdout === "" && r.stderr.trim().split("\n").length <= 2 && r.stderr.includes("--pipeline nope")),
  );
  if (!expected.runsOnLocalCloud) return;
  const verify = await step("verify --target local --app . --json", async () =>
    expect("verify", await cli(dir, env, ["verify", "--target", "local", "--app", ".", "--json"]), (r) => r.code === 0 && (JSON.parse(r.stdout) as { ok: boolean }).ok),
  );
  const probes = (JSON.parse(verify.stdout) as { probes: { facts: unknown[] }[] }).probes;
  console.log(`  ${probes.length} probes, ${probes.reduce((n, p) => n + p.facts.length, 0)} facts, no failed check`);
  if (expected.soakApp === undefined) return;
  // The soak counts applications in the stack's effects table: the app's pipeline whose side effect writes one.
  const soakApp = expected.soakApp;
  const soak = await step(`soak --app ${soakApp} ${SOAK_ARGS.join(" ")}`, async () =>
    expect("soak", await cli(dir, env, ["soak", "--app", soakApp, ...SOAK_ARGS]), (r) => {
      if (r.code !== 0) return false;
      const { ok, figures: f } = JSON.parse(r.stdout) as SoakFigures;
      return ok && f.applied > 0 && f.lost === 0 && f.doubleApplied === 0;
    }),
  );
  const { figures: f } = JSON.parse(soak.stdout) as SoakFigures;
  const quarantined = Object.entries(f.quarantinedByReason).map(([reason, n]) => `${n} ${reason}`).join(", ");
  console.log(`  sent ${f.sent}, ${f.uniqueKeys} keys, applied ${f.applied} (effects table), none lost or applied twice; quarantined: ${quarantined || "none"}`);
}
