import { openAwsTarget } from "./aws-target";
import { DlqCollector } from "./dlq";
import { openLocalTarget, type LocalTargetOptions } from "./local-target";
import { payment, type PaymentBody } from "./messages";
import { publish, type Publishable, type Sent } from "./publish";
import { readSettings, TargetKind, type E2eSettings } from "./settings";
import { settle, type Settlement } from "./settle";
import { capabilitiesOf, type Capability, type E2eTarget } from "./target";
import { businessKeyText } from "@effectively-once/contract";

/** What a scenario works with: the target, its own tenant id, and the publish / settle helpers. */
export interface ScenarioContext {
  readonly target: E2eTarget;
  /** This scenario's tenant id: every key it publishes is its own. */
  readonly tenant: string;
  payment(orderId: string, fields?: Record<string, unknown>): PaymentBody;
  publish(bodies: readonly Publishable[]): Promise<Sent[]>;
  /** Waits until every message has a fate and the queue is empty; then the fates and per-key counts. */
  settle(sent: readonly Sent[]): Promise<Settlement>;
}

export interface ScenarioSpec {
  /** Short id, unique in the file (e.g. "s7"): part of the tenant id, so fault rules can name its keys. */
  readonly id: string;
  readonly title: string;
  readonly needs?: readonly Capability[];
  /** Jest timeout on the local target (default 30 s); the aws target uses E2E_TEST_TIMEOUT_SECONDS. */
  readonly localTimeoutMs?: number;
}

export interface E2eSuite {
  readonly settings: E2eSettings;
  /** The tenant id of a scenario, usable before the target starts (e.g. in fault rules). */
  tenant(scenarioId: string): string;
  /** The business key of one order of a scenario. */
  key(scenarioId: string, orderId: string): string;
  /** Registers the scenario as a test when the target offers what it needs; otherwise reports it as left out. */
  scenario(spec: ScenarioSpec, body: (ctx: ScenarioContext) => Promise<void>): void;
}

const BOOT_TIMEOUT_MS = 60_000;

/**
 * One test file = one target: the local cloud booted with `local` (its own synth, windows and faults), or the
 * deployed stack named by E2E_TARGET=aws. Scenarios run one after another against it, each on its own keys.
 */
export function e2eSuite(name: string, local: LocalTargetOptions): E2eSuite {
  const settings = readSettings();
  const offered = new Set(capabilitiesOf(settings.target));
  const leftOut: string[] = [];
  let target: E2eTarget | undefined;
  let dlq: DlqCollector | undefined;

  beforeAll(async () => {
    target = settings.target === TargetKind.Local ? await openLocalTarget(local, settings) : await openAwsTarget(settings);
    // Every body the suite sends carries the run id, so the DLQ collector can tell this run's messages apart.
    dlq = new DlqCollector(target, (body) => body.includes(settings.runId));
  }, BOOT_TIMEOUT_MS);

  afterAll(async () => {
    await target?.close();
    if (leftOut.length > 0) {
      console.info(`[e2e] ${name}: ${leftOut.length} scenario(s) left out for the ${settings.target} target:\n  ${leftOut.join("\n  ")}`);
    }
  }, BOOT_TIMEOUT_MS);

  const tenant = (scenarioId: string) => `${settings.runId}-${name}-${scenarioId}`;

  return {
    settings,
    tenant,
    key: (scenarioId, orderId) => businessKeyText([tenant(scenarioId), orderId]),
    scenario(spec, body) {
      const missing = (spec.needs ?? []).filter((capability) => !offered.has(capability));
      if (missing.length > 0) {
        leftOut.push(`${spec.title} (needs ${missing.join(", ")})`);
        return;
      }
      const timeoutMs = settings.target === TargetKind.Local ? (spec.localTimeoutMs ?? 30_000) : settings.awsTestTimeoutMs;
      it(
        spec.title,
        async () => {
          if (!target || !dlq) throw new Error(`${name}: the ${settings.target} target did not start (see beforeAll)`);
          const ctx: ScenarioContext = {
            target,
            tenant: tenant(spec.id),
            payment: (orderId, fields) => payment(tenant(spec.id), orderId, fields),
            publish: (bodies) => publish(target!, bodies),
            settle: (sent) => settle(target!, dlq!, sent),
          };
          try {
            await body(ctx);
          } catch (error) {
            // The target's own account (executions, functions, faults) makes a failed guarantee explainable.
            if (error instanceof Error) error.message += `\n\n[e2e] ${settings.target} target: ${target.diagnostics()}`;
            throw error;
          }
        },
        timeoutMs,
      );
    },
  };
}
