import { PIPES_REGIONS } from "@effectively-once/contract";
/**
 * The regions the preflight knows, from botocore 1.43.11's endpoints.json (partitions aws and aws-cn, the ones the
 * pipeline deploys to; GovCloud has no EventBridge Pipes). A region missing here is not refused: AWS opens regions
 * faster than this list follows, so the preflight says so and asks the region itself (Pipes answers or not).
 */
const KNOWN_REGIONS: readonly string[] = [
  "af-south-1", "ap-east-1", "ap-east-2", "ap-northeast-1", "ap-northeast-2", "ap-northeast-3", "ap-south-1", "ap-south-2", "ap-southeast-1",
  "ap-southeast-2", "ap-southeast-3", "ap-southeast-4", "ap-southeast-5", "ap-southeast-6", "ap-southeast-7", "ca-central-1", "ca-west-1",
  "eu-central-1", "eu-central-2", "eu-north-1", "eu-south-1", "eu-south-2", "eu-west-1", "eu-west-2", "eu-west-3", "il-central-1", "me-central-1",
  "me-south-1", "mx-central-1", "sa-east-1", "us-east-1", "us-east-2", "us-west-1", "us-west-2", "cn-north-1", "cn-northwest-1",
];

/** Where endpoints.json lists a `pipes` endpoint: the contract's one list, which the synth's warning reads too. */
const PIPES_LISTED: ReadonlySet<string> = new Set(PIPES_REGIONS);

/** A region code as AWS spells them: `eu-west-1`, `ap-southeast-7`, `cn-north-1`, `us-gov-west-1`. */
const REGION_FORMAT = /^[a-z]{2}(-[a-z]+)+-\d{1,2}$/;

export type RegionVerdict =
  | { readonly kind: "known"; readonly pipesListed: boolean }
  | { readonly kind: "unknown" }
  | { readonly kind: "malformed"; readonly why: string };

export function judgeRegion(region: string): RegionVerdict {
  if (!REGION_FORMAT.test(region)) return { kind: "malformed", why: `"${region}" is not a region code (like eu-west-1)` };
  if (region.startsWith("us-gov-")) return { kind: "malformed", why: `${region} is a GovCloud (US) region, where EventBridge Pipes is not available (the synth refuses it too)` };
  if (!KNOWN_REGIONS.includes(region)) return { kind: "unknown" };
  return { kind: "known", pipesListed: PIPES_LISTED.has(region) };
}

/** The closest known regions to a mistyped one (same prefix), for the fix. */
export function nearRegions(region: string): string[] {
  const head = region.split("-")[0];
  return KNOWN_REGIONS.filter((r) => r.startsWith(`${head}-`)).slice(0, 6);
}
