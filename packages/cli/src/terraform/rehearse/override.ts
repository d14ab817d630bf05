import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { RehearsalUsageError } from "./errors";
import { GapFix, type MotoGap } from "./gaps";

/**
 * The override terraform merges over the synthesized stack for a rehearsal. It lives in the rehearsal's own
 * temporary copy of the stack, never in cdktf.out, so a later `cdktf deploy` cannot pick up its fake keys.
 */
const REHEARSAL_OVERRIDE_FILE = "rehearsal_override.tf.json";

/** Placeholder keys: moto checks no signature; real AWS would refuse them. */
export const REHEARSAL_ACCESS_KEY = "AKIAREHEARSAL0000000";
const REHEARSAL_SECRET_KEY = "rehearsal-not-a-secret";

/** Provider endpoint name of each resource type prefix the stack may use (longest prefix first). */
const ENDPOINT_OF: readonly (readonly [string, string])[] = [
  ["aws_cloudwatch_log_", "logs"],
  ["aws_cloudwatch_event_", "events"],
  ["aws_cloudwatch_", "cloudwatch"],
  ["aws_dynamodb_", "dynamodb"],
  ["aws_iam_", "iam"],
  ["aws_lambda_", "lambda"],
  ["aws_pipes_", "pipes"],
  ["aws_scheduler_", "scheduler"],
  ["aws_sfn_", "sfn"],
  ["aws_sns_", "sns"],
  ["aws_sqs_", "sqs"],
];

/** The provider endpoint a resource type calls; throws for a type this rehearsal has no local endpoint for. */
export function endpointServiceOf(type: string): string {
  const hit = ENDPOINT_OF.find(([prefix]) => type.startsWith(prefix));
  if (!hit) {
    throw new RehearsalUsageError(
      `resource type ${type} has no local endpoint in the rehearsal: add its service to ENDPOINT_OF in packages/cli/src/terraform/rehearse/override.ts (and check moto implements it), or nothing guarantees it stays off AWS`,
    );
  }
  return hit[1];
}

export interface StackResource {
  readonly type: string;
  readonly name: string;
}

export interface RehearsalOverrideOptions {
  /** moto (through the front): every endpoint of the provider goes there. */
  readonly endpoint: string;
  /** Local state in the rehearsal's temporary folder. */
  readonly statePath: string;
  readonly resources: readonly StackResource[];
  /** Confirmed gaps whose workaround belongs in the override. */
  readonly gaps: readonly MotoGap[];
  /** A moto 500 must fail the run in seconds, not after the provider's default 25 retries. */
  readonly maxRetries?: number;
  /** Attributes merged over resources (break tests), by type and name. */
  readonly extra?: Record<string, Record<string, Record<string, unknown>>>;
}

/**
 * Fake keys and the `skip_*` flags as for the offline plan (offline-override.ts says why each is needed), plus
 * `sts` and every service the stack uses pointed at the local endpoint, so no call can reach AWS.
 */
export function rehearsalOverride(options: RehearsalOverrideOptions): Record<string, unknown> {
  const services = new Set<string>(["sts"]);
  for (const r of options.resources) services.add(endpointServiceOf(r.type));
  const endpoints = Object.fromEntries([...services].sort().map((s) => [s, options.endpoint]));
  const resource: Record<string, Record<string, Record<string, unknown>>> = {};
  for (const gap of options.gaps) {
    if (gap.fix !== GapFix.SkipResource && gap.fix !== GapFix.IgnoreAttributes) continue;
    for (const r of options.resources.filter((x) => x.type === gap.resourceType)) {
      const block = ((resource[r.type] ??= {})[r.name] ??= {});
      if (gap.fix === GapFix.SkipResource) block.count = 0;
      else {
        const lifecycle = (block.lifecycle ??= { ignore_changes: [] }) as { ignore_changes: string[] };
        lifecycle.ignore_changes.push(...(gap.attributes ?? []));
      }
    }
  }
  for (const [type, byName] of Object.entries(options.extra ?? {})) {
    for (const [name, attributes] of Object.entries(byName)) Object.assign(((resource[type] ??= {})[name] ??= {}), attributes);
  }
  return {
    terraform: { backend: { local: { path: options.statePath } } },
    provider: {
      aws: [
        {
          access_key: REHEARSAL_ACCESS_KEY,
          secret_key: REHEARSAL_SECRET_KEY,
          skip_credentials_validation: true,
          skip_requesting_account_id: true,
          skip_metadata_api_check: true,
          max_retries: options.maxRetries ?? 1,
          endpoints: [endpoints],
        },
      ],
    },
    ...(Object.keys(resource).length ? { resource } : {}),
  };
}

export function writeRehearsalOverride(stackDir: string, options: RehearsalOverrideOptions): string {
  const file = join(stackDir, REHEARSAL_OVERRIDE_FILE);
  writeFileSync(file, `${JSON.stringify(rehearsalOverride(options), null, 2)}\n`);
  return file;
}
