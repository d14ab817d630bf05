/**
 * Where the probes run. `localTarget` boots the local cloud on the probe stack's synthesized JSON; `terraformTarget`
 * deploys it with the terraform CLI (providers from a filesystem mirror only: nothing is downloaded) and destroys
 * it on close. Either way the probes see only what a deployed stack shows: its outputs and its endpoints.
 */
import { rmSync } from "node:fs";
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

/**
 * `terraform destroy` of the probe stack; once it succeeded, its local state file (now empty) and terraform's backup
 * of it go too, since every run's probe id names a new one. A failed destroy keeps them: they are what a later
 * `destroyCommand` destroys from.
 */
async function destroyWith(tf: ReturnType<typeof probeTerraform>, stack: ProbeStack, note: (line: string) => void): Promise<void> {
  note(`terraform destroy ${stack.config.stackName}…`);
  await tf("destroy", "-auto-approve", "-input=false", "-no-color");
  if (stack.stateFile) for (const file of [stack.stateFile, `${stack.stateFile}.backup`]) rmSync(file, { force: true });
}

/** Destroys the probe stack a run left behind (`verify --destroy`): init from the mirror, then destroy from its state. */
export function terraformDestroy(env: NodeJS.ProcessEnv): (stack: ProbeStack, note: (line: string) => void) => Promise<void> {
  return async (stack, note) => {
    const tf = probeTerraform(stack, env);
    await tf("init", "-input=false", "-no-color");
    await destroyWith(tf, stack, note);
  };
}

/** The terraform CLI in the probe stack's folder: init from the provider mirror, apply, outputs; destroy on close. */
export function terraformTarget(env: NodeJS.ProcessEnv): Target {
  return async (stack, note) => {
    const tf = probeTerraform(stack, env);
    const destroy = () => destroyWith(tf, stack, note);
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
            throw new VerifyError(`terraform destroy of the probe stack ${stack.config.stackName} failed (${(e as Error).message}): destroy it with ${stack.destroyCommand}`, { cause: e });
          }),
      };
    } catch (error) {
      await destroy().catch((e: unknown) => note(`terraform destroy failed too: ${(e as Error).message}: destroy the probe stack with ${stack.destroyCommand}`));
      throw error;
    }
  };
}
