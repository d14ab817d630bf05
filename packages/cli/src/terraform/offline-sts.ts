/**
 * The account id an offline plan reports for `data "aws_caller_identity"` (the trust policies' `aws:SourceAccount`):
 * all zeros, like the local cloud's ARNs, so nobody mistakes it for a real account.
 */
const OFFLINE_ACCOUNT_ID = "000000000000";

/** True for an STS query-protocol `GetCallerIdentity` request body (`Action=GetCallerIdentity&Version=2011-06-15`). */
export function isGetCallerIdentity(body: string): boolean {
  return new URLSearchParams(body).get("Action") === "GetCallerIdentity";
}

/**
 * STS's answer to GetCallerIdentity, in its XML (query protocol) shape. hashicorp/aws reads the data source
 * through it while planning; without an answer an offline plan fails on DNS.
 */
export function callerIdentityXml(): string {
  return (
    '<GetCallerIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><GetCallerIdentityResult>' +
    `<Arn>arn:aws:iam::${OFFLINE_ACCOUNT_ID}:user/offline-plan</Arn><UserId>AIDAOFFLINEPLAN000000</UserId><Account>${OFFLINE_ACCOUNT_ID}</Account>` +
    "</GetCallerIdentityResult><ResponseMetadata><RequestId>00000000-0000-0000-0000-000000000000</RequestId></ResponseMetadata></GetCallerIdentityResponse>"
  );
}
