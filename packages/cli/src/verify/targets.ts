/**
 * Where the probes run. `localTarget` boots the local cloud on the probe stack's synthesized JSON; `terraformTarget`
 * deploys it with the terraform CLI (providers from a filesystem mirror only: nothing is downloaded) and destroys
 * it on close. Either way the probes see only what a deployed stack shows: its outputs and its endpoints.
 */
import { existsSync, rmSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { join } from "node:path";
import { sharedClock } from "@effectively-once/local-cloud/emulators";
import { startLocalCloud, type LocalCloud } from "@effectively-once/local-cloud";
import { TerraformCommandError } from "../terraform/errors";
import { findProviderMirror, offlineTerraformEnv, requireTerraform, runTerraform, writeOfflineCliConfig } from "../terraform/offline";
import { readRequiredProviders } from "../terraform/required-providers";
import { localAlarmWait } from "./alarms";
import { VerifyError } from "./errors";
import { endpointsFromEnv, type ProbeEndpoints } from "./clients";
import type { ProbeStack } from "./probe-stack";
import type { VerifyClock } from "./types";

/** A deployed (or booted) probe stack, as the probes reach it. */
export interface TargetSession {
  readonly label: string;
  readonly region: string;
  readonly local: boolean;
  readonly outputs: Readonly<Record<string, unknown>>;
  readonly endpoints: ProbeEndpoints;
  readonly clock: VerifyClock;
  /** How time passes for the alarms (the local cloud: evaluations, a minute at a time); absent: the clock's sleep. */
  readonly alarmWait?: (ms: number) => Promise<void>;
  /** The re-plan probe's answer: `no changes`, or `changes: <address> (<action>), …`. */
  replan(): Promise<string>;
  /** Destroys (terraform) or stops (local) the probe stack. */
  close(): Promise<void>;
}

export type Target = (stack: ProbeStack, note: (line: string) => void) => Promise<TargetSession>;

/** The offline prediction of the re-plan probe, from the synthesized JSON: a pipe without a log configuration changes on every plan. */
function predictedReplan(stack: ProbeStack): string {
  return stack.pipesWithoutLogs.length ? `changes: ${stack.pipesWithoutLogs.join(", ")}` : "no changes";
}

/** Executions a running local cloud has started and not yet ended. */
const executionsInFlight = (cloud: Pick<LocalCloud, "stats">) => {
  const e = cloud.stats().executions;
  return e.started - e.succeeded - e.failed - e.timedOut;
};

/**
 * The local cloud's clock: a wait moves the shared clock forward (a visibility timeout passes without sleeping it),
 * but only while no execution runs. A jump inside an execution would age its lease and its Lambda's remaining time
 * by minutes in a few milliseconds, which AWS never does; it would also spend a wait's deadline while the cloud works
 * (a loaded machine makes executions slower, never the visibility timeout shorter).
 */
export function localClock(cloud: Pick<LocalCloud, "stats">): VerifyClock {
  const clock = sharedClock();
  return {
    now: () => clock.now(),
    async sleep(ms) {
      if (executionsInFlight(cloud) <= 0) clock.advance(ms / 1000);
      // Some real time too: the cloud needs it to act on what the jump made due (a redelivery, an invocation).
      await sleep(Math.min(ms, 250));
    },
  };
}

const realClock: VerifyClock = { now: () => Date.now(), sleep: (ms) => sleep(ms).then(() => undefined) };

/**
 * Boots the local cloud on the probe stack. Its waits move the process's clock; closing it moves the clock back to
 * real time, since an AWS session may follow in the same process and AWS refuses requests signed minutes ahead.
 */
export const localTarget: Target = async (stack) => {
  const cloud = await startLocalCloud({ stackFile: stack.stackFile });
  const clock = sharedClock();
  return {
    label: "the local cloud",
    region: cloud.region,
    local: true,
    outputs: cloud.outputs,
    endpoints: cloud.endpoints,
    clock: localClock(cloud),
    alarmWait: localAlarmWait(cloud),
    replan: async () => predictedReplan(stack),
    async close() {
      await cloud.stop();
      clock.advance(-clock.offsetMs() / 1000);
    },
  };
};

/** The resources a `terraform plan` would change, from its text: `changes: aws_x.y, …`. */
export function planChanges(text: string): string {
  const changes = [...text.matchAll(/^\s*# (\S+) (?:will be|must be) /gm)].map((m) => m[1]);
  return changes.length ? `changes: ${changes.join(", ")}` : "changes (terraform named none)";
}

/** The terraform CLI in the probe stack's folder, providers from the mirror only. */
function probeTerraform(stack: ProbeStack, env: NodeJS.ProcessEnv) {
  const bin = requireTerraform(env);
  const mirror = findProviderMirror(readRequiredProviders(stack.stackDir), env);
  const tfEnv = offlineTerraformEnv(writeOfflineCliConfig(join(stack.stackDir, ".verify-terraform"), mirror), env);
  return (...args: string[]) => runTerraform(bin, args, { cwd: stack.stackDir, env: tfEnv });
}

/** A resource terraform's state holds: its address, and whether its attributes carry the probe stack's names. */
interface StateResource {
  readonly address: string;
  readonly probes: boolean;
}

interface ShownModule {
  readonly resources?: readonly { address: string; mode: string; values?: unknown }[];
  readonly child_modules?: readonly ShownModule[];
}

/**
 * The managed resources of the state (`terraform show -json`, which reads the state without refreshing it), each
 * marked by whether its attributes mention the probe prefix or the probe stack's name: every resource of a probe
 * stack does (its name, its role's, its queue's URL or its `stack` tag), no resource of the team's stack does.
 */
async function stateResources(tf: ReturnType<typeof probeTerraform>, stack: ProbeStack): Promise<StateResource[]> {
  const shown = JSON.parse((await tf("show", "-json", "-no-color")).stdout) as { values?: { root_module?: ShownModule } };
  const all = (m: ShownModule | undefined): StateResource[] => [
    ...(m?.resources ?? []).filter((r) => r.mode === "managed").map((r) => {
      const values = JSON.stringify(r.values ?? {});
      return { address: r.address, probes: values.includes(stack.config.namePrefix) || values.includes(stack.config.stackName) };
    }),
    ...(m?.child_modules ?? []).flatMap(all),
  ];
  return all(shown.values?.root_module);
}

/** What terraform destroy says it destroyed: `Destroy complete! Resources: N destroyed.` (absent: none counted). */
function destroyedCount(text: string): number | undefined {
  const m = /Destroy complete! Resources: (\d+) destroyed/.exec(text);
  return m ? Number(m[1]) : undefined;
}

/**
 * `terraform destroy` of the probe stack. The local state file and terraform's backup of it go only when terraform
 * destroyed as many resources as the state held: a refresh in another account or region drops every resource from
 * the state and destroys none, and the backup is then the only record of the stack. `check` may refuse the state's
 * resources before anything is destroyed (one read of the state serves both). Returns the count destroyed.
 */
async function destroyWith(tf: ReturnType<typeof probeTerraform>, stack: ProbeStack, note: (line: string) => void, check: (resources: StateResource[]) => void = () => undefined): Promise<number> {
  const resources = await stateResources(tf, stack);
  check(resources);
  const held = resources.length;
  note(`terraform destroy ${stack.config.stackName} (${held} resources in its state)…`);
  const run = await tf("destroy", "-auto-approve", "-input=false", "-no-color");
  const destroyed = destroyedCount(run.stdout) ?? 0;
  if (destroyed < held) {
    const kept = stack.stateFile ? `; kept its state ${stack.stateFile} and ${stack.stateFile}.backup (the state before the destroy)` : "";
    throw new VerifyError(
      `terraform destroy of the probe stack ${stack.config.stackName} destroyed ${destroyed} of the ${held} resources its state held${kept}: a refresh in another account or region than the run's drops them from the state. Check the credentials and region are the run's, restore the backup over the state file if the state is now empty, and run ${stack.destroyCommand} again`,
    );
  }
  if (stack.stateFile) for (const file of [stack.stateFile, `${stack.stateFile}.backup`]) rmSync(file, { force: true });
  return destroyed;
}

/**
 * The refusals of `verify --destroy`, before terraform destroys anything: it acts only on the local state file a run
 * of this probe id left, holding resources all named for that probe stack. A remote backend may point at any state
 * (the team's own stack's, even); a missing or empty state file means the wrong folder, app or settings.
 */
function checkStateFile(stack: ProbeStack): void {
  if (!stack.stateFile) {
    throw new VerifyError(
      `--destroy: the probe stack ${stack.config.stackName} has a remote backend, whose state may be any stack's (the team's own, even): verify destroys only from the local state file a run leaves. Nothing was destroyed. By hand, in a folder holding the probe stack's cdk.tf.json and its backend: terraform init, terraform state list (every resource must be named for ${stack.config.namePrefix}), then terraform destroy`,
    );
  }
  if (!existsSync(stack.stateFile)) {
    throw new VerifyError(
      `--destroy: no state file ${stack.stateFile}, so nothing was destroyed: run the command in the folder where the run ran, with its PIPELINE_* settings and --app (they name the stack and its state file); without the state, find its resources by the tag stack=${stack.config.stackName}`,
    );
  }
}

/** Then, from the state itself (after init): it holds resources, and every one carries the probe stack's names. */
function checkStateResources(resources: readonly StateResource[], stack: ProbeStack): void {
  if (!resources.length) {
    throw new VerifyError(`--destroy: the state file ${stack.stateFile} holds no resources (0): nothing to destroy, nothing was destroyed. If a destroy in another account or region emptied it, ${stack.stateFile}.backup holds the state before it`);
  }
  const foreign = resources.filter((r) => !r.probes);
  if (foreign.length) {
    throw new VerifyError(
      `--destroy: ${foreign.length} of the ${resources.length} resources in ${stack.stateFile} are not named for the probe stack ${stack.config.stackName} (name prefix ${stack.config.namePrefix}: ${foreign.slice(0, 5).map((r) => r.address).join(", ")}${foreign.length > 5 ? ", …" : ""}): nothing was destroyed. Check the state file is that probe stack's, then destroy it with terraform by hand`,
    );
  }
}

/** Destroys the probe stack a run left behind (`verify --destroy`): init from the mirror, check its state, destroy. Returns the count destroyed. */
export function terraformDestroy(env: NodeJS.ProcessEnv): (stack: ProbeStack, note: (line: string) => void) => Promise<number> {
  return async (stack, note) => {
    checkStateFile(stack);
    const tf = probeTerraform(stack, env);
    await tf("init", "-input=false", "-no-color");
    return destroyWith(tf, stack, note, (resources) => checkStateResources(resources, stack));
  };
}

/** The terraform CLI in the probe stack's folder: init from the provider mirror, apply, outputs; destroy on close. */
export function terraformTarget(env: NodeJS.ProcessEnv): Target {
  return async (stack, note) => {
    const tf = probeTerraform(stack, env);
    const destroy = () => destroyWith(tf, stack, note).then(() => undefined);
    note(`terraform init + apply ${stack.config.stackName} (prefix ${stack.config.namePrefix})…`);
    await tf("init", "-input=false", "-no-color");
    try {
      await tf("apply", "-auto-approve", "-input=false", "-no-color");
      const raw = JSON.parse((await tf("output", "-json")).stdout) as Record<string, { value: unknown }>;
      const outputs = Object.fromEntries(Object.entries(raw).map(([name, o]) => [name, o.value]));
      return {
        label: `AWS (${stack.stack.region})`,
        region: typeof outputs.region === "string" ? outputs.region : stack.stack.region,
        local: false,
        outputs,
        endpoints: endpointsFromEnv(env),
        clock: realClock,
        async replan() {
          try {
            await tf("plan", "-detailed-exitcode", "-input=false", "-no-color", "-lock=false");
            return "no changes";
          } catch (error) {
            if (error instanceof TerraformCommandError && error.code === 2) return planChanges(error.stderr);
            throw error;
          }
        },
        close: () =>
          destroy().catch((e: unknown) => {
            if (e instanceof VerifyError) throw e; // already names the probe stack, the counts and the command
            throw new VerifyError(`terraform destroy of the probe stack ${stack.config.stackName} failed (${(e as Error).message}): destroy it with ${stack.destroyCommand}`, { cause: e });
          }),
      };
    } catch (error) {
      await destroy().catch((e: unknown) => note(`terraform destroy failed too: ${(e as Error).message}: destroy the probe stack with ${stack.destroyCommand}`));
      throw error;
    }
  };
}
