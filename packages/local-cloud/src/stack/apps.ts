import { existsSync, readdirSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import type { PipelineApp } from "@effectively-once/pipeline";
import type { MessageProfile } from "@effectively-once/pipeline";

/** Which app the tools run when none is named: `PIPELINE_APP`, else the payments example. */
export const APP_ENV = "PIPELINE_APP";
/** The variable's name before 0.2.0, refused with the new name so a stale setting is not silently ignored. */
const RENAMED_APP_ENV = "PIPELINE_EXAMPLE";
const DEFAULT_APP = "payments";

/** A project's example apps: `examples/` of the folder the tools run from (the repository's root under npm scripts). */
const EXAMPLES_DIR = resolve("examples");

/**
 * The app an environment names (`PIPELINE_APP`, else payments): `process.env` for the tools, or the variables of an
 * env file (`npm run plan:review --base-env/--head-env`), which must pick the app as well as its stack name and prefix.
 */
export function appOf(env: NodeJS.ProcessEnv): string {
  if (env[RENAMED_APP_ENV] !== undefined && env[APP_ENV] === undefined) {
    throw new Error(`${RENAMED_APP_ENV} was renamed ${APP_ENV} in 0.2.0: set ${APP_ENV}=${env[RENAMED_APP_ENV]} instead`);
  }
  return env[APP_ENV] || DEFAULT_APP;
}

function appFromEnv(): string {
  return appOf(process.env);
}

/** The examples shipped in `examples/` (one folder each, holding `stack.ts`). */
export function exampleNames(): string[] {
  if (!existsSync(EXAMPLES_DIR)) return [];
  return readdirSync(EXAMPLES_DIR, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(join(EXAMPLES_DIR, e.name, "stack.ts")))
    .map((e) => e.name)
    .sort();
}

/**
 * The folder of an app: an example's name (`payments`, `invoices`) or the path of a folder holding `stack.ts`
 * (and `profile.ts` for streams). Throws naming the choices.
 */
function appDir(nameOrPath: string = appFromEnv()): string {
  const byPath = nameOrPath.includes("/") || nameOrPath.startsWith(".");
  const dir = byPath ? (isAbsolute(nameOrPath) ? nameOrPath : resolve(nameOrPath)) : join(EXAMPLES_DIR, nameOrPath);
  if (!existsSync(join(dir, "stack.ts")) && !existsSync(join(dir, "stack.js"))) {
    throw new Error(
      `app "${nameOrPath}": no stack.ts in ${dir}: set ${APP_ENV} (or --app) to one of ${exampleNames().join(", ") || "(no examples)"}` +
        ` or to a folder whose stack.ts exports \`app\` (a PipelineApp)`,
    );
  }
  return dir;
}

function exported<T>(file: string, name: string, what: string): T {
  if (![".ts", ".js"].some((ext) => existsSync(file + ext))) throw new Error(`${file}.ts is missing: it must export \`${name}\` (${what})`);
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- apps are chosen at run time: a require of a computed path
  const value = (require(file) as Record<string, unknown>)[name];
  if (value === undefined) throw new Error(`${file} exports no \`${name}\` (${what})`);
  return value as T;
}

/** The app's stack (`<dir>/stack.ts` → `app`). */
export function loadApp(nameOrPath?: string): PipelineApp {
  return exported<PipelineApp>(join(appDir(nameOrPath), "stack"), "app", "a PipelineApp: { defaults, addStack }");
}

/**
 * Another member of the app's stack file (`<dir>/stack.ts` → `name`), for a tool that needs more than the
 * `PipelineApp` (the simulation reads `simulation`); the tool owns its type, `what` describes it in the error.
 * `light` names a module beside the stack file that the stack re-exports the member from (the payments example's
 * `simulation.ts`): when the app has one that exports the member, it is read instead, without loading the stack's
 * framework and construct; otherwise (no such file, or one that exports no such member) the stack file is.
 */
export function loadStackExport<T>(name: string, what: string, nameOrPath?: string, light?: string): T {
  const dir = appDir(nameOrPath);
  const lightFile = light === undefined ? undefined : join(dir, light);
  if (lightFile !== undefined && [".ts", ".js"].some((ext) => existsSync(lightFile + ext))) {
    // A file of that name that does not export the member is the team's own module, not the light one: the stack decides.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- apps are chosen at run time: a require of a computed path
    const value = (require(lightFile) as Record<string, unknown>)[name];
    if (value !== undefined) return value as T;
  }
  return exported<T>(join(dir, "stack"), name, what);
}

const PROFILE_SHAPE = "a MessageProfile: { unique(index, runId, random), conflict(body), rejected?(index, runId), groupOf?(body) }";

/** Refuses a `profile` export that is not a MessageProfile, naming the member and the shape a profile has. */
function checkProfile(value: unknown, file: string): MessageProfile {
  const problems: string[] = [];
  if (typeof value !== "object" || value === null) problems.push(`it is ${value === null ? "null" : typeof value}, not an object`);
  else {
    const members = value as Record<string, unknown>;
    for (const name of ["unique", "conflict"]) if (typeof members[name] !== "function") problems.push(`\`${name}\` is ${typeof members[name]}, not a function`);
    for (const name of ["rejected", "groupOf"]) if (members[name] !== undefined && typeof members[name] !== "function") problems.push(`\`${name}\` is ${typeof members[name]}, not a function`);
  }
  if (problems.length > 0) throw new Error(`${file} exports a \`profile\` that is not ${PROFILE_SHAPE}: ${problems.join("; ")}`);
  return value as MessageProfile;
}

/**
 * The app's message profile (`<dir>/profile.ts` → `profile`), for sample and load streams; or, when `file` is given,
 * the `profile` export of that module (a team's own profile, by path). Throws naming a member of the wrong shape.
 */
export function loadProfile(nameOrPath?: string, file?: string): MessageProfile {
  const module = file ? resolve(file).replace(/\.(ts|js)$/, "") : join(appDir(nameOrPath), "profile");
  return checkProfile(exported<unknown>(module, "profile", PROFILE_SHAPE), module);
}
