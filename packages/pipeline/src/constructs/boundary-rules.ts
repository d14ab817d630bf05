import { Token } from "cdktf";
import { partitionOfRegion } from "@effectively-once/contract";
import { cite, type LimitSource } from "./aws-limits";
import type { PropProblem } from "./errors";
import type { PropRule } from "./prop-rules";
import type { ResolvedPipelineProps } from "./props";
import { knownRegion } from "./region-rules";

/**
 * IAM's permissions boundary: a managed policy's ARN, `arn:<partition>:iam::<account or "aws">:policy/<path><name>`.
 * A path is `/` or `/…/` of printable ASCII, a name 1-128 of `\w+=,.@-` (IAM's API reference, CreatePolicy's
 * PolicyName and Path); AWS managed policies carry `aws` for the account. IAM refuses a boundary that is not a managed
 * policy of the role's partition at CreateRole, after the stack's other resources already exist.
 */
const BOUNDARY_ARN = /^arn:([a-z-]+):iam::(\d{12}|aws):policy\/(?:[\x21-\x7E]+\/)?[\w+=,.@-]{1,128}$/;
const BOUNDARY_SOURCE: LimitSource = { model: "iam arnType", doc: "https://docs.aws.amazon.com/IAM/latest/UserGuide/access_policies_boundaries.html" };

/**
 * The permissions boundary of the stack's three roles (the function's, the pipe's, the workflow's): a literal ARN must
 * name a managed policy of the stack's partition. A token (another resource's ARN) is left to IAM.
 */
export const BOUNDARY_RULES: readonly PropRule[] = [
  {
    name: "permissionsBoundary",
    after: ["region"],
    check: (p: ResolvedPipelineProps): PropProblem | undefined => {
      const arn = p.permissionsBoundary;
      if (arn === undefined || (typeof arn === "string" && Token.isUnresolved(arn))) return undefined;
      const match = typeof arn === "string" ? BOUNDARY_ARN.exec(arn) : null;
      if (!match) {
        return {
          prop: "permissionsBoundary",
          value: arn,
          reason: "is not the ARN of an IAM managed policy (arn:<partition>:iam::<account>:policy/<name>), which IAM requires of a permissions boundary",
          fix: `give the ARN of the managed policy that bounds the stack's roles, e.g. arn:aws:iam::111122223333:policy/pipeline-boundary (${cite(BOUNDARY_SOURCE)})`,
        };
      }
      const known = knownRegion(p);
      if (!known || match[1] === partitionOfRegion(known.region)) return undefined;
      const partition = partitionOfRegion(known.region);
      return {
        prop: "permissionsBoundary",
        value: arn,
        reason: `is a policy of partition "${match[1]}", but the stack deploys to ${known.region} (partition "${partition}"): IAM refuses a boundary from another partition`,
        fix: `give the boundary policy's ARN in partition "${partition}" (arn:${partition}:iam::…)`,
      };
    },
  },
];
