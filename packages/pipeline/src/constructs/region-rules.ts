import { Token } from "cdktf";
import { partitionOfRegion } from "@effectively-once/contract";
import { CHINA_LAMBDA_XRAY_SOURCE, cite, GOVCLOUD_PIPES_SOURCE } from "./aws-limits";
import type { PropProblem } from "./errors";
import type { PropRule } from "./prop-rules";
import type { ResolvedPipelineProps } from "./props";

/** A region name as the API models spell it (`us-east-1`, `cn-north-1`, `us-gov-west-1`, `eusc-de-east-1`). */
const REGION = /^[a-z]{2,4}(-gov|-iso[a-z]?)?-[a-z]+-\d+$/;

/** The region the synth knows, and which prop it comes from: the provider's literal region, else the deprecated prop. */
export function knownRegion(p: ResolvedPipelineProps): { region: string; prop: string } | undefined {
  if (p.target.providerRegion !== undefined) return { region: p.target.providerRegion, prop: "provider region" };
  if (p.region !== undefined && REGION.test(p.region)) return { region: p.region, prop: "region" };
  return undefined;
}

/**
 * Where the stack goes, checked when the synth can see it (a literal provider region): a deprecated `region` prop
 * that disagrees with the provider, and regions that lack what the pipeline uses. A region that comes from the
 * environment at plan time is checked by Terraform instead (preconditions on the pipe and the function).
 */
export const REGION_RULES: readonly PropRule[] = [
  {
    name: "region",
    check: (p): PropProblem | undefined => {
      if (p.region === undefined) return undefined;
      if (typeof p.region !== "string" || !REGION.test(p.region)) {
        return { prop: "region", value: p.region, reason: "is not an AWS region (and the prop is deprecated: the pipeline reads its region from the provider)", fix: "remove region" };
      }
      const provider = p.target.providerRegion;
      if (provider === undefined || provider === p.region) return undefined;
      return {
        prop: "region",
        value: p.region,
        reason: `differs from the provider's region "${provider}": the pipeline deploys where the provider does, and this deprecated prop is no longer used`,
        fix: `remove region (or set the provider's region to "${p.region}")`,
      };
    },
  },
  {
    name: "region.pipes",
    after: ["region"],
    check: (p) => {
      const known = knownRegion(p);
      if (!known || partitionOfRegion(known.region) !== "aws-us-gov") return undefined;
      return {
        prop: known.prop,
        value: known.region,
        reason: "is an AWS GovCloud (US) region, where EventBridge Pipes is not available",
        fix: `deploy to a region that has EventBridge Pipes (${cite(GOVCLOUD_PIPES_SOURCE)})`,
      };
    },
  },
  {
    name: "tracing.region",
    after: ["region", "tracing"],
    check: (p) => {
      const known = knownRegion(p);
      if (!known || !p.tracing || partitionOfRegion(known.region) !== "aws-cn") return undefined;
      return {
        prop: "tracing",
        value: p.tracing,
        reason: `turns on the function's X-Ray tracing, which Lambda does not offer in the China Regions (${known.prop} ${known.region})`,
        fix: `set tracing: false (${cite(CHINA_LAMBDA_XRAY_SOURCE)})`,
      };
    },
  },
  {
    name: "alarmActions.partition",
    after: ["region", "alarmActions"],
    check: (p) => {
      const known = knownRegion(p);
      if (!known) return [];
      const partition = partitionOfRegion(known.region);
      return p.alarmActions
        .filter((arn) => !Token.isUnresolved(arn) && arn.split(":")[1] !== partition)
        .map((arn) => ({ prop: "alarmActions", value: arn, reason: `is an ARN of partition "${arn.split(":")[1]}", but the stack deploys to ${known.region} (partition "${partition}")`, fix: `give the ARN of an action in ${known.region}'s partition` }));
    },
  },
];
