import { DataAwsCallerIdentity } from "@cdktf/provider-aws/lib/data-aws-caller-identity";
import { DataAwsPartition } from "@cdktf/provider-aws/lib/data-aws-partition";
import { DataAwsRegion } from "@cdktf/provider-aws/lib/data-aws-region";
import { TerraformStack, Token } from "cdktf";
import type { Construct } from "constructs";
import type { DeployTarget } from "./deploy-target";

/**
 * Partition, region and account of this stack, as Terraform references: the account from `data "aws_caller_identity"`
 * (read while planning; an offline plan answers it locally), the partition from `data "aws_partition"`, the region
 * from `data "aws_region"` (the provider's, even when it comes from `AWS_REGION` at plan time). No account id, region
 * or partition is written into the code.
 */
export interface StackArnScope {
  readonly partition: string;
  readonly region: string;
  readonly account: string;
  /** The partition's DNS suffix (`amazonaws.com`, `amazonaws.com.cn`): service endpoints such as `kms:ViaService` values. */
  readonly dnsSuffix: string;
}

export interface StackData {
  readonly arns: StackArnScope;
  readonly target: DeployTarget;
}

/** The data sources every ARN and the region output read, and what the synth knows of the target. */
export function stackData(scope: Construct): StackData {
  const caller = new DataAwsCallerIdentity(scope, "caller");
  const partition = new DataAwsPartition(scope, "partition");
  const region = new DataAwsRegion(scope, "region");
  const providerVersion = region.terraformGeneratorMetadata?.providerVersion;
  // hashicorp/aws 6 deprecates the data source's `name` for `region`; 5.x has only `name`.
  const regionAttribute = providerVersion !== undefined && Number(providerVersion.split(".")[0]) >= 6 ? "region" : "name";
  return {
    arns: { partition: partition.partition, region: region.getStringAttribute(regionAttribute), account: caller.accountId, dnsSuffix: partition.dnsSuffix },
    target: { providerVersion, providerRegion: literalProviderRegion(scope), providerDefaultTags: providerDefaultTags(scope) },
  };
}

/** The stack's default aws provider (no alias), when there is exactly one. */
function defaultProvider(scope: Construct): { region?: unknown; defaultTags?: unknown } | undefined {
  const providers = TerraformStack.of(scope)
    .node.findAll()
    .filter((c) => (c as { terraformResourceType?: string }).terraformResourceType === "aws" && (c as { alias?: string }).alias === undefined);
  return providers.length === 1 ? (providers[0] as { region?: unknown; defaultTags?: unknown }) : undefined;
}

/** The region of the stack's default aws provider, when it is a literal (not a token, not absent). */
function literalProviderRegion(scope: Construct): string | undefined {
  const region = defaultProvider(scope)?.region;
  return typeof region === "string" && !Token.isUnresolved(region) ? region : undefined;
}

/** The default provider's `default_tags` as pairs; undefined when absent or a token as a whole. */
function providerDefaultTags(scope: Construct): readonly (readonly [string, string])[] | undefined {
  const blocks = defaultProvider(scope)?.defaultTags;
  if (!Array.isArray(blocks)) return undefined;
  const pairs = blocks.flatMap((block: { tags?: unknown }) => (block?.tags !== null && typeof block?.tags === "object" && !Token.isUnresolved(block.tags) ? Object.entries(block.tags as Record<string, string>) : []));
  return pairs.length > 0 ? pairs : undefined;
}
