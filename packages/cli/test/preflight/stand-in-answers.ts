/**
 * The answers of the name, IAM and Pipes APIs the preflight calls, in each service's wire format and with the error
 * shapes AWS sends (the API models' error codes in packages/testing/src/aws-models, e.g. iam's NoSuchEntity, sqs's
 * QueueDoesNotExist with its query-compatible code AWS.SimpleQueueService.NonExistentQueue).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { replyJson } from "../../src/terraform/json-http";

/** Who may do what, as SimulatePrincipalPolicy answers: a denial names its cause. */
export type Denial = "identity" | "scp" | "boundary";

export interface NamesAndIamState {
  /** `<kind> <name>` of what exists: `role X`, `queue X`, `table X`, `dashboard X`, `log-group X`, `function X`, `state-machine ARN`, `pipe X`. */
  readonly existing: ReadonlySet<string>;
  readonly callerArn: string;
  /** Role name → its ARN with path (GetRole). */
  readonly roles?: ReadonlyMap<string, string>;
  readonly summary: ReadonlyMap<string, number>;
  /** Action → why the simulation denies it (absent: allowed). */
  readonly denied?: ReadonlyMap<string, Denial>;
  readonly tables?: number;
}

const IAM_NS = "https://iam.amazonaws.com/doc/2010-05-08/";
const escape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

function xml(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { "content-type": "text/xml" });
  res.end(body);
}

function iamError(res: ServerResponse, status: number, code: string, message: string): void {
  xml(res, status, `<ErrorResponse xmlns="${IAM_NS}"><Error><Type>Sender</Type><Code>${code}</Code><Message>${escape(message)}</Message></Error><RequestId>00000000-0000-0000-0000-000000000000</RequestId></ErrorResponse>`);
}

function jsonError(res: ServerResponse, status: number, type: string, message: string, queryError?: string): void {
  const text = JSON.stringify({ __type: type, message });
  res.writeHead(status, { "content-type": "application/x-amz-json-1.0", ...(queryError ? { "x-amzn-query-error": queryError } : {}) });
  res.end(text);
}

/** `ActionNames.member.1` … as a list. */
const members = (params: URLSearchParams, list: string) => [...params.entries()].filter(([k]) => k.startsWith(`${list}.member.`)).map(([, v]) => v);

function simulate(params: URLSearchParams, state: NamesAndIamState): string {
  const results: string[] = [];
  for (const action of members(params, "ActionNames")) {
    for (const resource of members(params, "ResourceArns").length ? members(params, "ResourceArns") : ["*"]) {
      const denial = state.denied?.get(action);
      const decision = denial === undefined ? "allowed" : "implicitDeny";
      results.push(
        `<member><EvalActionName>${escape(action)}</EvalActionName><EvalResourceName>${escape(resource)}</EvalResourceName><EvalDecision>${decision}</EvalDecision>` +
          `<MatchedStatements/><MissingContextValues/><EvalDecisionDetails/>` +
          `<OrganizationsDecisionDetail><AllowedByOrganizations>${denial !== "scp"}</AllowedByOrganizations></OrganizationsDecisionDetail>` +
          (denial === "boundary" ? "<PermissionsBoundaryDecisionDetail><AllowedByPermissionsBoundary>false</AllowedByPermissionsBoundary></PermissionsBoundaryDecisionDetail>" : "") +
          "</member>",
      );
    }
  }
  return `<SimulatePrincipalPolicyResponse xmlns="${IAM_NS}"><SimulatePrincipalPolicyResult><IsTruncated>false</IsTruncated><EvaluationResults>${results.join("")}</EvaluationResults></SimulatePrincipalPolicyResult><ResponseMetadata><RequestId>1</RequestId></ResponseMetadata></SimulatePrincipalPolicyResponse>`;
}

/** IAM and STS (query protocol, one POST path): the action and its answer; undefined when it is not one of them. */
export function answerQuery(body: string, res: ServerResponse, state: NamesAndIamState, seen: string[]): boolean {
  const params = new URLSearchParams(body);
  const action = params.get("Action");
  if (action === "GetCallerIdentity") {
    seen.push("sts:GetCallerIdentity");
    const account = /:(\d{12}):/.exec(state.callerArn)?.[1] ?? "000000000000";
    xml(res, 200, `<GetCallerIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><GetCallerIdentityResult><Arn>${state.callerArn}</Arn><UserId>AIDAPREFLIGHT</UserId><Account>${account}</Account></GetCallerIdentityResult><ResponseMetadata><RequestId>1</RequestId></ResponseMetadata></GetCallerIdentityResponse>`);
    return true;
  }
  if (action === "GetRole") {
    const name = params.get("RoleName") ?? "";
    seen.push(`iam:GetRole ${name}`);
    const arn = state.roles?.get(name) ?? (state.existing.has(`role ${name}`) ? `arn:aws:iam::123456789012:role/${name}` : undefined);
    if (!arn) iamError(res, 404, "NoSuchEntity", `The role with name ${name} cannot be found.`);
    else xml(res, 200, `<GetRoleResponse xmlns="${IAM_NS}"><GetRoleResult><Role><Path>/</Path><Arn>${arn}</Arn><RoleName>${name}</RoleName><RoleId>AROAPREFLIGHT</RoleId><CreateDate>2026-01-01T00:00:00Z</CreateDate><AssumeRolePolicyDocument>%7B%7D</AssumeRolePolicyDocument></Role></GetRoleResult><ResponseMetadata><RequestId>1</RequestId></ResponseMetadata></GetRoleResponse>`);
    return true;
  }
  if (action === "GetAccountSummary") {
    seen.push("iam:GetAccountSummary");
    const entries = [...state.summary].map(([k, v]) => `<entry><key>${k}</key><value>${v}</value></entry>`).join("");
    xml(res, 200, `<GetAccountSummaryResponse xmlns="${IAM_NS}"><GetAccountSummaryResult><SummaryMap>${entries}</SummaryMap></GetAccountSummaryResult><ResponseMetadata><RequestId>1</RequestId></ResponseMetadata></GetAccountSummaryResponse>`);
    return true;
  }
  if (action === "SimulatePrincipalPolicy") {
    seen.push(`iam:SimulatePrincipalPolicy ${params.get("PolicySourceArn")}`);
    xml(res, 200, simulate(params, state));
    return true;
  }
  return false;
}

const TARGETS: ReadonlyMap<string, (input: Record<string, unknown>, state: NamesAndIamState, res: ServerResponse) => string> = new Map([
  ["AmazonSQS.GetQueueUrl", (input, state, res) => {
    const name = String(input.QueueName);
    if (state.existing.has(`queue ${name}`)) replyJson(res, 200, { QueueUrl: `https://sqs.us-east-1.amazonaws.com/123456789012/${name}` });
    else jsonError(res, 400, "com.amazonaws.sqs#QueueDoesNotExist", "The specified queue does not exist.", "AWS.SimpleQueueService.NonExistentQueue;Sender");
    return `sqs:GetQueueUrl ${name}`;
  }],
  ["DynamoDB_20120810.DescribeTable", (input, state, res) => {
    const name = String(input.TableName);
    if (state.existing.has(`table ${name}`)) replyJson(res, 200, { Table: { TableName: name, TableStatus: "ACTIVE" } });
    else jsonError(res, 400, "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException", `Requested resource not found: Table: ${name} not found`);
    return `dynamodb:DescribeTable ${name}`;
  }],
  ["DynamoDB_20120810.ListTables", (_input, state, res) => {
    replyJson(res, 200, { TableNames: Array.from({ length: state.tables ?? 0 }, (_, i) => `t${i}`) });
    return "dynamodb:ListTables";
  }],
  ["GraniteServiceVersion20100801.GetDashboard", (input, state, res) => {
    const name = String(input.DashboardName);
    if (state.existing.has(`dashboard ${name}`)) replyJson(res, 200, { DashboardName: name, DashboardBody: "{}", DashboardArn: `arn:aws:cloudwatch::123456789012:dashboard/${name}` });
    else jsonError(res, 404, "com.amazonaws.cloudwatch#DashboardNotFoundError", "Dashboard does not exist", "ResourceNotFound;Sender");
    return `cloudwatch:GetDashboard ${name}`;
  }],
  ["Logs_20140328.DescribeLogGroups", (input, state, res) => {
    const prefix = String(input.logGroupNamePrefix);
    // A prefix search: a longer name that starts with it is not the group.
    const groups = [...state.existing].filter((e) => e.startsWith(`log-group ${prefix}`)).map((e) => ({ logGroupName: e.slice("log-group ".length) }));
    replyJson(res, 200, { logGroups: groups });
    return `logs:DescribeLogGroups ${prefix}`;
  }],
  ["AWSStepFunctions.DescribeStateMachine", (input, state, res) => {
    const arn = String(input.stateMachineArn);
    if (state.existing.has(`state-machine ${arn}`)) replyJson(res, 200, { stateMachineArn: arn, name: arn.split(":").pop(), definition: "{}", roleArn: "r", type: "EXPRESS", creationDate: 0 });
    else jsonError(res, 400, "com.amazonaws.swf.service.v2.model#StateMachineDoesNotExist", `State Machine Does Not Exist: '${arn}'`);
    return `states:DescribeStateMachine ${arn}`;
  }],
]);

/** The JSON-protocol services, by X-Amz-Target; false when the target is not one of them. */
export function answerJson(target: string, body: string, res: ServerResponse, state: NamesAndIamState, seen: string[]): boolean {
  const handler = TARGETS.get(target);
  if (!handler) return false;
  seen.push(handler(JSON.parse(body || "{}") as Record<string, unknown>, state, res));
  return true;
}

/** Lambda's GetFunction and Pipes' DescribePipe / ListPipes (REST paths); false when the path is not one of them. */
export function answerRest(req: IncomingMessage, res: ServerResponse, state: NamesAndIamState, seen: string[]): boolean {
  const url = req.url ?? "/";
  const fn = /^\/2015-03-31\/functions\/([^/?]+)$/.exec(url);
  if (req.method === "GET" && fn) {
    const name = decodeURIComponent(fn[1]);
    seen.push(`lambda:GetFunction ${name}`);
    if (state.existing.has(`function ${name}`)) return replyJson(res, 200, { Configuration: { FunctionName: name } }), true;
    res.writeHead(404, { "content-type": "application/json", "x-amzn-errortype": "ResourceNotFoundException" });
    res.end(JSON.stringify({ Type: "User", Message: `Function not found: arn:aws:lambda:us-east-1:123456789012:function:${name}` }));
    return true;
  }
  const pipe = /^\/v1\/pipes\/([^/?]+)$/.exec(url);
  if (req.method === "GET" && pipe) {
    const name = decodeURIComponent(pipe[1]);
    seen.push(`pipes:DescribePipe ${name}`);
    if (state.existing.has(`pipe ${name}`)) return replyJson(res, 200, { Name: name, CurrentState: "RUNNING" }), true;
    res.writeHead(404, { "content-type": "application/json", "x-amzn-errortype": "NotFoundException" });
    res.end(JSON.stringify({ message: `Pipe ${name} does not exist.` }));
    return true;
  }
  if (req.method === "GET" && url.startsWith("/v1/pipes")) {
    seen.push("pipes:ListPipes");
    return replyJson(res, 200, { Pipes: [] }), true;
  }
  return false;
}
