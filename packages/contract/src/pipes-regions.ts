/**
 * The regions where EventBridge Pipes has an endpoint, as botocore's endpoint data lists them (botocore 1.43,
 * `data/endpoints.json`, service `pipes`, every partition). The list can lag a region AWS opens after that release, so
 * a region missing from it is a warning for the synth and a question for the preflight (online), not a refusal; only
 * AWS GovCloud (US), where AWS documents that Pipes is not available, is refused (the construct's region rules).
 */
export const PIPES_REGIONS: readonly string[] = [
  "af-south-1",
  "ap-east-1",
  "ap-northeast-1",
  "ap-northeast-2",
  "ap-northeast-3",
  "ap-south-1",
  "ap-south-2",
  "ap-southeast-1",
  "ap-southeast-2",
  "ap-southeast-3",
  "ca-central-1",
  "eu-central-1",
  "eu-central-2",
  "eu-north-1",
  "eu-south-1",
  "eu-south-2",
  "eu-west-1",
  "eu-west-2",
  "eu-west-3",
  "me-central-1",
  "me-south-1",
  "sa-east-1",
  "us-east-1",
  "us-east-2",
  "us-west-1",
  "us-west-2",
  "cn-north-1",
  "cn-northwest-1",
  "eu-isoe-west-1",
  "us-isof-east-1",
  "us-isof-south-1",
];

/** Where the list comes from, for messages. */
export const PIPES_REGIONS_SOURCE = "botocore 1.43 data/endpoints.json, service pipes";
