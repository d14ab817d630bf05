// `npm run consumer-check`: packs the seven published workspace packages (their prepack builds them), dry-run
// publishes each, then installs the tarballs as a team would, outside the repository, and checks what each install
// can do:
//   - shipments (test/consumer/shipments): a cdktf 0.21 app, its own domain and side effect;
//   - subscriptions (test/consumer/subscriptions): a native CDK Terrain app (`cdktn`, `@cdktn/provider-aws`, the
//     construct's `/cdktn` entry), its own domain and a side effect writing its own table;
//   - stock-moves (test/consumer/stock-moves): a cdktf app in FIFO mode (fifo: true), each SKU's stock moves in send
//     order across a retry;
//   each type-checks against the published types, synthesizes in process, runs on the local cloud and has every fate
//   judged by the harness;
//   - deploy-only: the pipeline package and a framework, nothing else: no emulator may arrive with it;
//   - ops-only: `npx pipeline-ops` from the ops package, without the local cloud or a framework;
//   - contract-only: the contract alone loads, and brings neither a framework nor an emulator;
//   - the team's tools (@effectively-once/cli, scripts/consumer/team-tools.ts): from the shipments app on cdktf, the
//     same app on CDK Terrain in alias mode (cdktn installed as `cdktf`, provider 5.100.0) and the native CDK Terrain
//     app (hashicorp/aws 6.x, not in the offline mirror: its plan review stops naming the provider), `npx
//     effectively-once` reviews the plan offline, writes the deployer policy, plans capacity and cost, and (shipments)
//     runs verify --target local; and, since shipments' own side effect calls an HTTP API, a short soak of the same
//     team's second pipeline (test/consumer/shipments/returns), whose side effect writes an effect journal (the soak
//     counts applications in it), on cdktf and in alias mode.
// The tarballs of the contract, the state machine and the function package are installed beside the others, as the
// registry would resolve them. The children run without the repository's source condition (.npmrc's NODE_OPTIONS),
// so they load the packages as published.
// Installs use the npm cache first (`--prefer-offline`); only what the cache lacks (CDK Terrain's provider on a fresh
// machine) comes from the registry.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { PUBLISHED as PACKAGES, type PublishedPackage as PackageDir } from "./packages/published";
import { checkTeamTools, type ToolExpectations } from "./consumer/team-tools";

const ROOT = resolve(__dirname, "..");
/** CDK Terrain's pins for the native app (not in the repository's lock: the construct is built against cdktf here). */
const CDK_TERRAIN = { cdktn: "0.24.0", "@cdktn/provider-aws": "25.7.0", constructs: "10.6.0" };
/** What a deploy dependency must not bring: the emulators, the TypeScript runner, the local cloud. */
const EMULATORS = ["dynalite", "fauxqs", "tsx", "@effectively-once/local-cloud"];
/** What the contract and the operator CLI must not bring: a construct framework. */
const FRAMEWORKS = ["cdktf", "cdktn", "constructs", "@cdktf/provider-aws", "@cdktn/provider-aws"];
/** The environment of every child: the repository's `--conditions=@effectively-once/source` left out. */
const CHILD_ENV: NodeJS.ProcessEnv = { ...process.env, CHECKPOINT_DISABLE: "1", NODE_OPTIONS: (process.env.NODE_OPTIONS ?? "").replace(/--conditions=@effectively-once\/source/g, "").trim() };
// npm hands its configuration to the scripts it runs as npm_config_* variables: a nested npm would set it again.
delete CHILD_ENV.npm_config_node_options;

async function stepAsync<T>(what: string, run: () => Promise<T>): Promise<T> {
  const started = Date.now();
  process.stdout.write(`consumer-check: ${what} … `);
  const result = await run();
  console.log(`${((Date.now() - started) / 1000).toFixed(1)} s`);
  return result;
}

function step<T>(what: string, run: () => T): T {
  const started = Date.now();
  process.stdout.write(`consumer-check: ${what} … `);
  const result = run();
  console.log(`${((Date.now() - started) / 1000).toFixed(1)} s`);
  return result;
}

function sh(cwd: string, command: string, args: string[]): string {
  try {
    return execFileSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], env: CHILD_ENV });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${command} ${args.join(" ")} failed in ${cwd}:\n${e.stdout ?? ""}${e.stderr ?? e.message}`);
  }
}

const rootPins = (): Record<string, string> => (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { devDependencies: Record<string, string> }).devDependencies;

/** `CONSUMER_CHECK_TARBALLS=<folder>`: the tarballs there (e.g. from `npm run packages:pack`), not packed again. */
function packed(dir: string): Map<PackageDir, string> {
  const files = readdirSync(dir);
  return new Map(
    (Object.keys(PACKAGES) as PackageDir[]).map((name) => {
      const file = files.find((f) => f.startsWith(`effectively-once-${name}-`) && f.endsWith(".tgz"));
      if (!file) throw new Error(`CONSUMER_CHECK_TARBALLS=${dir} holds no tarball of ${name}`);
      return [name, join(resolve(dir), file)];
    }),
  );
}

/**
 * Scripts `npm publish` runs that the check below would not: the dry run passes `--ignore-scripts`, and `npm pack` runs
 * none of these but `postpack`, whose change to the folder the dry run would then check instead of what publish packs.
 */
const PUBLISH_ONLY_SCRIPTS = ["prepublishOnly", "prepublish", "publish", "postpublish", "postpack"];

function assertNoPublishOnlyScripts(dir: string): void {
  const scripts = (JSON.parse(readFileSync(join(ROOT, dir, "package.json"), "utf8")) as { scripts?: Record<string, string> }).scripts ?? {};
  const found = PUBLISH_ONLY_SCRIPTS.filter((script) => Object.prototype.hasOwnProperty.call(scripts, script));
  if (found.length > 0) throw new Error(`${dir}/package.json has ${found.join(", ")}: npm publish --dry-run --ignore-scripts skips them, so this check would not test what publish does. Fix: move the work into prepack (npm pack runs it), or run it in this check`);
}

function pack(work: string): Map<PackageDir, string> {
  // Each package's prepack builds it (and the packages it builds against), as `npm publish` would: once, in `npm pack`.
  const tarballs = new Map<PackageDir, string>();
  for (const [name, dir] of Object.entries(PACKAGES) as [PackageDir, string][]) {
    assertNoPublishOnlyScripts(dir);
    const before = new Set(readdirSync(work));
    sh(join(ROOT, dir), "npm", ["pack", "--silent", "--pack-destination", work]);
    // What `npm publish` would send, checked without a registry login (npm says it would need one, and goes on), from
    // the build the pack just made: running prepack a second time rebuilt the same files (half of this step's time).
    sh(join(ROOT, dir), "npm", ["publish", "--dry-run", "--ignore-scripts", "--loglevel=error"]);
    const tarball = readdirSync(work).find((f) => f.endsWith(".tgz") && !before.has(f));
    if (!tarball) throw new Error(`npm pack of ${dir} wrote no tarball`);
    tarballs.set(name, join(work, tarball));
  }
  return tarballs;
}

/** A fresh app folder with a package.json naming the tarballs and pinned packages, installed. */
/** The tarballs of the packages the others depend on, as the registry would resolve them. */
function foundations(tarballs: Map<PackageDir, string>): Record<string, string> {
  return Object.fromEntries((["contract", "statemachines", "functions"] as const).map((name) => [`@effectively-once/${name}`, `file:${tarballs.get(name)}`]));
}

function install(dir: string, name: string, dependencies: Record<string, string>, overrides?: Record<string, unknown>): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), `${JSON.stringify({ name, version: "1.0.0", private: true, dependencies, ...(overrides ? { overrides } : {}) }, null, 2)}\n`);
  sh(dir, "npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"]);
}

function present(dir: string, names: readonly string[]): string[] {
  return names.filter((name) => existsSync(join(dir, "node_modules", name)));
}

interface ConsumerApp {
  /** The folder under test/consumer. */
  readonly name: string;
  /** Where it is installed (default: its name). */
  readonly dir?: string;
  readonly label: string;
  readonly framework: Record<string, string>;
  readonly overrides?: Record<string, unknown>;
  readonly runtime: string;
  /** What the team's tools can do with it here (absent: not run). */
  readonly tools?: ToolExpectations;
}

async function checkApp(work: string, tarballs: Map<PackageDir, string>, pins: Record<string, string>, app: ConsumerApp): Promise<void> {
  const dir = join(work, app.dir ?? app.name);
  cpSync(join(ROOT, "test/consumer", app.name), dir, { recursive: true });
  const dependencies = {
    ...foundations(tarballs),
    "@effectively-once/pipeline": `file:${tarballs.get("pipeline")}`,
    "@effectively-once/local-cloud": `file:${tarballs.get("local-cloud")}`,
    "@effectively-once/ops": `file:${tarballs.get("ops")}`,
    "@effectively-once/cli": `file:${tarballs.get("cli")}`,
    ...app.framework,
    "@aws-sdk/client-dynamodb": pins["@aws-sdk/client-dynamodb"],
    tsx: pins.tsx,
    typescript: pins.typescript,
    "@types/node": pins["@types/node"],
  };
  step(`${app.dir ?? app.name} (${app.label}): npm install of the tarballs outside the repository`, () => install(dir, app.name, dependencies, app.overrides));
  step(`${app.name}: tsc against the published types`, () => sh(dir, "npx", ["--no-install", "tsc", "-p", "."]));
  step(`${app.name}: synth in process (npx tsx main.ts)`, () => sh(dir, "npx", ["--no-install", "tsx", "main.ts"]));
  const stack = JSON.parse(readFileSync(join(dir, "cdktf.out/stacks", app.name, "cdk.tf.json"), "utf8")) as {
    terraform: { required_providers: { aws: { version: string } } };
    resource: { aws_lambda_function: Record<string, { runtime: string }> };
  };
  const provider = stack.terraform.required_providers.aws.version;
  // The runtime the app asked for reached the function: nodejs24.x only where the provider bindings have it (/cdktn).
  const runtimes = Object.values(stack.resource.aws_lambda_function).map((f) => f.runtime);
  if (runtimes.join() !== app.runtime) throw new Error(`${app.name}: the function's runtime is ${runtimes.join()}, not ${app.runtime}`);
  console.log(`  function runtime ${app.runtime}`);
  // The machines' offline provider mirror holds hashicorp/aws 5.100.0 only: a stack that needs 6.x is not validated.
  console.log(`  requires hashicorp/aws ${provider}${provider.startsWith("5.") ? "" : ": terraform validate of it needs that provider (not in the offline mirror, so not run here)"}`);
  const report = step(`${app.name}: run on the local cloud, fates judged by the harness (npx tsx check.ts)`, () => sh(dir, "npx", ["--no-install", "tsx", "check.ts"]));
  console.log(report.trimEnd().replace(/^/gm, "  "));
  if (app.tools) await checkTeamTools(dir, CHILD_ENV, app.tools, (what, run) => stepAsync(`${app.dir ?? app.name}: ${what}`, run));
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), "consumer-check-"));
  const pins = rootPins();
  const cdktf = { cdktf: pins.cdktf, constructs: pins.constructs, "@cdktf/provider-aws": pins["@cdktf/provider-aws"] };
  let ok = false;
  try {
    const given = process.env.CONSUMER_CHECK_TARBALLS;
    const tarballs = given ? step(`the tarballs in ${given}`, () => packed(given)) : step("npm pack of each package (prepack builds it), then npm publish --dry-run of it", () => pack(work));
    const tools: ToolExpectations = { plan: { reviewed: true }, runsOnLocalCloud: true, soakApp: "returns/" };
    await checkApp(work, tarballs, pins, { name: "shipments", label: `cdktf ${pins.cdktf}`, framework: cdktf, runtime: "nodejs22.x", tools });
    // CDK Terrain's alias mode (docs/cdk-terrain.md): cdktn installed under the name cdktf, the cdktf provider bindings.
    const alias = { ...cdktf, cdktf: `npm:cdktn@${CDK_TERRAIN.cdktn}` };
    await checkApp(work, tarballs, pins, { name: "shipments", dir: "shipments-cdktn-alias", label: `CDK Terrain ${CDK_TERRAIN.cdktn}, alias mode`, framework: alias, overrides: { "@cdktf/provider-aws": { cdktf: "$cdktf" } }, runtime: "nodejs22.x", tools });
    await checkApp(work, tarballs, pins, { name: "stock-moves", label: `cdktf ${pins.cdktf}, FIFO`, framework: cdktf, runtime: "nodejs22.x" });
    await checkApp(work, tarballs, pins, {
      name: "subscriptions",
      label: `CDK Terrain ${CDK_TERRAIN.cdktn}, native`,
      framework: CDK_TERRAIN,
      runtime: "nodejs24.x",
      tools: { plan: { missingProvider: "hashicorp/aws 6." }, runsOnLocalCloud: false },
    });

    const deploy = join(work, "deploy-only");
    step("deploy-only: the pipeline package and cdktf, nothing else", () => install(deploy, "deploy-only", { ...foundations(tarballs), "@effectively-once/pipeline": `file:${tarballs.get("pipeline")}`, ...cdktf }));
    const dragged = present(deploy, EMULATORS);
    if (dragged.length > 0) throw new Error(`installing @effectively-once/pipeline brought ${dragged.join(", ")}: the deploy package must not depend on an emulator`);
    sh(deploy, process.execPath, ["-e", 'const p = require("@effectively-once/pipeline"); const h = require("@effectively-once/pipeline/handler"); if (typeof p.IdempotentPipeline !== "function" || typeof h.createPipelineHandler !== "function") process.exit(1);']);
    console.log(`  no ${EMULATORS.join(", ")} in node_modules; the construct and the handler wrapper load`);

    const ops = join(work, "ops-only");
    step("ops-only: the operator CLI without the local cloud", () =>
      install(ops, "ops-only", { "@effectively-once/ops": `file:${tarballs.get("ops")}`, "@effectively-once/contract": `file:${tarballs.get("contract")}` }),
    );
    const withOps = present(ops, [...EMULATORS, ...FRAMEWORKS, "@effectively-once/pipeline"]);
    if (withOps.length > 0) throw new Error(`installing @effectively-once/ops brought ${withOps.join(", ")}`);
    const help = sh(ops, "npx", ["--no-install", "pipeline-ops", "--help"]);
    if (!/dlq/.test(help)) throw new Error(`npx pipeline-ops --help printed no command list:\n${help}`);
    console.log(`  npx pipeline-ops --help: ${help.split("\n")[0]}`);

    const contract = join(work, "contract-only");
    step("contract-only: the contract alone", () => install(contract, "contract-only", { "@effectively-once/contract": `file:${tarballs.get("contract")}` }));
    const withContract = present(contract, [...EMULATORS, ...FRAMEWORKS]);
    if (withContract.length > 0) throw new Error(`installing @effectively-once/contract brought ${withContract.join(", ")}`);
    sh(contract, process.execPath, ["-e", 'const c = require("@effectively-once/contract"); const f = require("@effectively-once/contract/pipe-filter"); if (c.businessKeyText(["a", 1]) !== \'["a",1]\' || typeof f.compileFilterCriteria !== "function") process.exit(1);']);
    console.log("  no framework, no emulator; the contract and the pipe filter load");
    ok = true;
  } finally {
    rmSync(work, { recursive: true, force: true });
    console.log(ok ? "consumer-check: PASSED" : "consumer-check: FAILED");
  }
}

void main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
});
