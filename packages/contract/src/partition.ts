/**
 * The AWS partition a region belongs to (the `arn:<partition>:` of its ARNs), by its name's prefix as botocore's
 * endpoint data lists them: China (`cn-`), GovCloud (`us-gov-`), the ISO partitions and the European Sovereign Cloud
 * (`eusc-`); every other region is `aws`. The stack itself reads its partition from `data "aws_partition"`; this is
 * for what runs without Terraform: the synth's region rules and the local cloud's answer to that data source.
 */
const PREFIXES: readonly (readonly [string, string])[] = [
  ["cn-", "aws-cn"],
  ["us-gov-", "aws-us-gov"],
  ["us-isob-", "aws-iso-b"],
  ["us-isof-", "aws-iso-f"],
  ["eu-isoe-", "aws-iso-e"],
  ["us-iso-", "aws-iso"],
  ["eusc-", "aws-eusc"],
];

export function partitionOfRegion(region: string): string {
  return PREFIXES.find(([prefix]) => region.startsWith(prefix))?.[1] ?? "aws";
}

/** The DNS suffix of a partition's service endpoints (what `data "aws_partition"` answers as `dns_suffix`). */
export function dnsSuffixOfPartition(partition: string): string {
  return partition === "aws-cn" ? "amazonaws.com.cn" : "amazonaws.com";
}
