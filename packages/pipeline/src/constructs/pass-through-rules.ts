/**
 * What a team passes through the construct to AWS, checked like the construct's own props: its IAM statements (and
 * the role policy they make with the construct's own), the provider's default tags, where its alarm actions live,
 * whether the region has EventBridge Pipes, and, in a stack, the handler's file. Values that are Terraform references
 * are not known at synth: they are skipped (a statement's ARN counts at an estimated length).
 */
import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { Op, Token } from "cdktf";
import { partitionOfRegion, PIPES_REGIONS, PIPES_REGIONS_SOURCE } from "@effectively-once/contract";
import {
  cite,
  IAM_ACTION,
  IAM_POLICY_SOURCE,
  IAM_ROLE_POLICY_MAX_CHARS,
  IAM_SID,
  TAG_KEY_MAX_CHARS,
  TAG_VALUE_MAX_CHARS,
  TAGS_MAX,
  TAGS_SOURCE,
} from "./aws-limits";
import type { PropProblem } from "./errors";
import { functionPolicyStatements } from "./iam";
import type { PropRule } from "./prop-rules";
import type { ResolvedPipelineProps } from "./props";
import { knownRegion } from "./region-rules";
import { pipelineResourceNames } from "./resource-names";

const STATEMENTS = "function.policyStatements";

/** The longest partition, region and account an ARN of this stack can carry: the estimate for a reference. */
const ARN_SCOPE = { partition: "aws-us-gov", region: "ap-southeast-5", account: "123456789012" };
/** A Terraform reference in a team's statement (an ARN known at apply), counted at this many characters. */
const REFERENCE_CHARS = 100;

function statementProblems(p: ResolvedPipelineProps): PropProblem[] {
  return p.function.policyStatements.flatMap((s, i): PropProblem[] => {
    const prop = `${STATEMENTS}[${i}]`;
    const problems: PropProblem[] = [];
    const actions = Array.isArray(s.Action) ? s.Action : [];
    if (actions.length === 0) problems.push({ prop: `${prop}.Action`, value: s.Action, reason: "is empty: IAM refuses a statement without an action", fix: `list the actions the function needs, e.g. ["sqs:SendMessage"] (${cite(IAM_POLICY_SOURCE)})` });
    for (const action of actions) {
      if (typeof action === "string" && Token.isUnresolved(action)) continue;
      if (typeof action !== "string" || !IAM_ACTION.test(action)) {
        problems.push({ prop: `${prop}.Action`, value: action, reason: "is not an IAM action (`<service prefix>:<action>`, wildcards allowed)", fix: `write it with its service prefix, e.g. "dynamodb:GetItem" (${cite(IAM_POLICY_SOURCE)})` });
      }
    }
    if (s.Sid !== undefined && !(typeof s.Sid === "string" && (Token.isUnresolved(s.Sid) || IAM_SID.test(s.Sid)))) {
      const suggestion = typeof s.Sid === "string" ? s.Sid.replace(/[^A-Za-z0-9]/g, "") : "";
      problems.push({ prop: `${prop}.Sid`, value: s.Sid, reason: "holds characters IAM does not accept in a Sid (only A-Z, a-z and 0-9)", fix: `use ${suggestion ? `"${suggestion}"` : "letters and digits only"} (${cite(IAM_POLICY_SOURCE)})` });
    }
    return problems;
  });
}

/** A value's length with every Terraform reference inside it counted at {@link REFERENCE_CHARS}. */
function estimated(value: unknown): unknown {
  if (typeof value === "string") return Token.isUnresolved(value) ? "x".repeat(Math.max(REFERENCE_CHARS, value.length)) : value;
  if (Array.isArray(value)) return value.map(estimated);
  if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, estimated(v)]));
  return value;
}

/** The function role's inline policy as IAM counts it: its JSON without whitespace, references estimated. */
function rolePolicySize(p: ResolvedPipelineProps): PropProblem | undefined {
  const names = pipelineResourceNames(p);
  const { partition, region, account } = ARN_SCOPE;
  const arns = { logGroup: `arn:${partition}:logs:${region}:${account}:log-group:${names.functionLogGroup}`, idempotencyTable: `arn:${partition}:dynamodb:${region}:${account}:table/${names.idempotencyTable}` };
  const count = (statements: unknown) => JSON.stringify(estimated(statements)).replace(/\s/g, "").length;
  const all = functionPolicyStatements(p, arns);
  const total = count({ Version: "2012-10-17", Statement: all });
  if (total <= IAM_ROLE_POLICY_MAX_CHARS) return undefined;
  const team = count(p.function.policyStatements);
  return {
    prop: STATEMENTS,
    value: `${p.function.policyStatements.length} statements`,
    reason:
      `make the function role's inline policy ${total} characters as IAM counts them (whitespace not counted; yours about ${team}, the construct's own statements the rest, each Terraform reference estimated at ${REFERENCE_CHARS}), ` +
      `over IAM's ${IAM_ROLE_POLICY_MAX_CHARS} per role`,
    fix: `trim it by ${total - IAM_ROLE_POLICY_MAX_CHARS} characters: merge statements with the same effect and resources, use fewer resource ARNs (a wildcard in a name), or attach a managed policy to the role (pipeline.function.role) instead (${cite(IAM_POLICY_SOURCE)})`,
  };
}

function defaultTagProblems(p: ResolvedPipelineProps): PropProblem[] {
  const tags = p.target.providerDefaultTags;
  if (!tags) return [];
  const prop = "provider default_tags";
  const problems: PropProblem[] = [];
  if (tags.length > TAGS_MAX) problems.push({ prop, value: `${tags.length} tags`, reason: `puts ${tags.length} tags on every resource; AWS allows ${TAGS_MAX} per resource`, fix: `keep at most ${TAGS_MAX} (${cite(TAGS_SOURCE)})` });
  for (const [key, value] of tags) {
    if (Token.isUnresolved(key)) continue;
    const chars = (text: string) => [...text].length;
    if (chars(key) > TAG_KEY_MAX_CHARS) problems.push({ prop, value: key, reason: `is a tag key of ${chars(key)} characters; AWS allows ${TAG_KEY_MAX_CHARS}`, fix: `shorten it (${cite(TAGS_SOURCE)})` });
    if (/^aws:/i.test(key)) problems.push({ prop, value: key, reason: "starts with aws:, a prefix AWS reserves for its own tags", fix: `rename it without the aws: prefix (${cite(TAGS_SOURCE)})` });
    if (typeof value === "string" && !Token.isUnresolved(value) && chars(value) > TAG_VALUE_MAX_CHARS) {
      problems.push({ prop, value: `${key}=${value}`, reason: `is a tag value of ${chars(value)} characters; AWS allows ${TAG_VALUE_MAX_CHARS}`, fix: `shorten it (${cite(TAGS_SOURCE)})` });
    }
  }
  return problems;
}

/** An alarm action must live in the alarms' region: CloudWatch refuses an SNS topic of another region. */
function alarmActionRegions(p: ResolvedPipelineProps): PropProblem[] {
  const known = knownRegion(p);
  if (!known) return [];
  return p.alarmActions.flatMap((arn): PropProblem[] => {
    if (typeof arn !== "string" || Token.isUnresolved(arn)) return [];
    const region = arn.split(":")[3];
    if (!region || region === known.region) return [];
    return [{ prop: "alarmActions", value: arn, reason: `is in ${region}, but the alarms are in ${known.region} (${known.prop}): CloudWatch notifies only an action of the alarm's own region`, fix: `give a topic in ${known.region} (an SNS topic can forward to another region's subscribers)` }];
  });
}

/**
 * The same rule at plan, where the synth could not see the region (it comes from AWS_REGION then): one precondition
 * per literal alarm action whose ARN names a region, on the stack's `data "aws_region"`.
 */
export function alarmActionPreconditions(p: ResolvedPipelineProps, stackRegion: string): { condition: unknown; errorMessage: string }[] {
  if (knownRegion(p)) return [];
  return p.alarmActions.flatMap((arn) => {
    const region = typeof arn === "string" && !Token.isUnresolved(arn) ? arn.split(":")[3] : undefined;
    if (!region) return [];
    return [{ condition: Op.eq(stackRegion, region), errorMessage: `alarmActions: ${arn} is in ${region}, but the alarms are in another region; CloudWatch notifies only an action of the alarm's own region: give a topic in the stack's region.` }];
  });
}

/** The rules, in the order problems are reported (all of them run on every synth). */
export const PASS_THROUGH_RULES: readonly PropRule[] = [
  { name: "function.policyStatements", check: statementProblems },
  { name: "function.policyStatements.size", after: ["function.policyStatements", "resourceNames"], check: rolePolicySize },
  { name: "provider.defaultTags", check: defaultTagProblems },
  { name: "alarmActions.region", after: ["region", "alarmActions", "alarmActions.partition"], check: alarmActionRegions },
];

/** Only in a stack: the handler's file (the simulation and the unit tests name none). */
export const STACK_RULES: readonly PropRule[] = [
  {
    name: "function.entry",
    check: (p) => {
      const entry = p.function.entry;
      const path = typeof entry === "string" && entry !== "" ? resolve(entry) : undefined;
      if (path !== undefined && existsSync(path) && statSync(path).isFile()) return undefined;
      return {
        prop: "function.entry",
        value: entry,
        reason: path === undefined ? "is empty" : `names no file (resolved from ${process.cwd()} to ${path})`,
        fix: "give the path of the handler's TypeScript file, absolute or relative to the directory synth runs in (e.g. join(__dirname, \"functions/charge/index.ts\"))",
      };
    },
  },
];

/**
 * What the synth cannot decide: a region missing from botocore's list of Pipes endpoints (the list can lag a new
 * region; GovCloud, documented without Pipes, is refused by the region rules). The preflight checks it online.
 */
export function passThroughWarnings(p: ResolvedPipelineProps): string[] {
  const known = knownRegion(p);
  if (!known || partitionOfRegion(known.region) === "aws-us-gov" || PIPES_REGIONS.includes(known.region)) return [];
  return [
    `IdempotentPipeline: ${known.prop} ${known.region} is not among the regions botocore lists for EventBridge Pipes (${PIPES_REGIONS_SOURCE}); the list can lag a new region. ` +
      "If Pipes is not offered there, the pipe's creation fails at apply, after the queues and tables exist: check the AWS Regional Services list, or run `npm run preflight`.",
  ];
}
