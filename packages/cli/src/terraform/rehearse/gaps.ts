import { strToU8, zipSync } from "fflate";
import { motoCall } from "./moto-http";

/**
 * Where moto 5.2.1 differs from AWS in ways hashicorp/aws 5.100.0 trips over, each with a probe that shows moto's
 * behaviour on a throwaway resource. The rehearsal runs every probe first and applies a workaround only for a gap
 * the probe confirms; a workaround whose probe no longer confirms it fails the run (exit 1), so none outlives the
 * moto that needed it. Each applied workaround is printed as "not rehearsed: <what> (<why>)".
 */
export const GapFix = {
  /** The front answers the call (front.ts). */
  Front: "front",
  /** The resource type is left out of the rehearsal (`count = 0` in the override). */
  SkipResource: "skip-resource",
  /** These attributes of the resource type are left out of the second plan (`lifecycle.ignore_changes`). */
  IgnoreAttributes: "ignore-attributes",
  /** Nothing to work around in the stack; the rehearsal avoids the call (e.g. the change rehearsal never edits it). */
  Avoided: "avoided",
} as const;
export type GapFix = (typeof GapFix)[keyof typeof GapFix];

export interface MotoGap {
  readonly id: string;
  /** What the rehearsal therefore does not prove. */
  readonly what: string;
  /** moto's behaviour, as the probe shows it. */
  readonly why: string;
  readonly fix: GapFix;
  /** For skip-resource / ignore-attributes. */
  readonly resourceType?: string;
  readonly attributes?: readonly string[];
  /** Resolves true when moto still behaves as `why` says. */
  probe(endpoint: string, id: string): Promise<boolean>;
}

const ACCOUNT = "123456789012";
const REGION = "us-east-1";
const ROLE = `arn:aws:iam::${ACCOUNT}:role/rehearsal-probe`;
const PASS = JSON.stringify({ StartAt: "A", States: { A: { Type: "Pass", End: true } } });

const sqs = (endpoint: string, action: string, body: unknown) => motoCall(endpoint, { service: "sqs", target: `AmazonSQS.${action}`, body });
const sfn = (endpoint: string, action: string, body: unknown) => motoCall(endpoint, { service: "states", target: `AWSStepFunctions.${action}`, body });

async function queueAttributes(endpoint: string, name: string, attributes: Record<string, string>, set?: Record<string, string>) {
  const { QueueUrl } = (await sqs(endpoint, "CreateQueue", { QueueName: name, Attributes: attributes })).json<{ QueueUrl: string }>();
  if (set) await sqs(endpoint, "SetQueueAttributes", { QueueUrl, Attributes: set });
  const read = (await sqs(endpoint, "GetQueueAttributes", { QueueUrl, AttributeNames: ["All"] })).json<{ Attributes: Record<string, string> }>();
  await sqs(endpoint, "DeleteQueue", { QueueUrl });
  return read.Attributes;
}

/** A 5xx or a non-JSON answer: moto has no handler for the operation. */
const unimplemented = (answer: { status: number; text: string }) => answer.status >= 500 || !answer.text.trimStart().startsWith("{");

export const MOTO_GAPS: readonly MotoGap[] = [
  {
    id: "sfn-validate",
    what: "AWS's own ValidateStateMachineDefinition",
    why: "moto has no ValidateStateMachineDefinition; the front answers it with asl-validator and the local interpreter's compiler",
    fix: GapFix.Front,
    probe: async (endpoint) => unimplemented(await sfn(endpoint, "ValidateStateMachineDefinition", { definition: PASS })),
  },
  {
    id: "sfn-versions",
    what: "state machine version listing",
    why: "moto has no ListStateMachineVersions; the front answers an empty list (the stack publishes no versions)",
    fix: GapFix.Front,
    probe: async (endpoint) => unimplemented(await sfn(endpoint, "ListStateMachineVersions", { stateMachineArn: `arn:aws:states:${REGION}:${ACCOUNT}:stateMachine:rehearsal-probe` })),
  },
  {
    id: "sqs-redrive-allow",
    what: "aws_sqs_queue_redrive_allow_policy",
    why: "moto drops RedriveAllowPolicy from SetQueueAttributes, so the provider waits for it forever",
    fix: GapFix.SkipResource,
    resourceType: "aws_sqs_queue_redrive_allow_policy",
    probe: async (endpoint, id) => {
      const policy = JSON.stringify({ redrivePermission: "byQueue", sourceQueueArns: [`arn:aws:sqs:${REGION}:${ACCOUNT}:x`] });
      const read = await queueAttributes(endpoint, `rehearsal-probe-allow-${id}`, {}, { RedriveAllowPolicy: policy });
      return read.RedriveAllowPolicy === undefined;
    },
  },
  {
    id: "sfn-type",
    what: "the EXPRESS type as read back from AWS",
    why: "moto stores an EXPRESS state machine but reads its type back as STANDARD, which would plan a replacement",
    fix: GapFix.IgnoreAttributes,
    resourceType: "aws_sfn_state_machine",
    attributes: ["type"],
    probe: async (endpoint, id) => {
      const name = `rehearsal-probe-${id}`;
      const { stateMachineArn } = (await sfn(endpoint, "CreateStateMachine", { name, type: "EXPRESS", roleArn: ROLE, definition: PASS })).json<{ stateMachineArn: string }>();
      const { type } = (await sfn(endpoint, "DescribeStateMachine", { stateMachineArn })).json<{ type: string }>();
      await sfn(endpoint, "DeleteStateMachine", { stateMachineArn });
      return type !== "EXPRESS";
    },
  },
  {
    id: "lambda-logging",
    what: "the function's logging_config (JSON logs to its own log group) as read back",
    why: "moto accepts LoggingConfig on CreateFunction but does not store it, which would plan an update every time",
    fix: GapFix.IgnoreAttributes,
    resourceType: "aws_lambda_function",
    attributes: ["logging_config"],
    probe: async (endpoint, id) => {
      const roleName = `rehearsal-probe-${id}`;
      const trust = JSON.stringify({ Version: "2012-10-17", Statement: [{ Effect: "Allow", Principal: { Service: "lambda.amazonaws.com" }, Action: "sts:AssumeRole" }] });
      await motoCall(endpoint, { service: "iam", form: { Action: "CreateRole", Version: "2010-05-08", RoleName: roleName, AssumeRolePolicyDocument: trust } });
      const zip = Buffer.from(zipSync({ "index.js": strToU8("exports.handler = async () => ({});") })).toString("base64");
      const name = `rehearsal-probe-${id}`;
      await motoCall(endpoint, {
        service: "lambda",
        path: "/2015-03-31/functions",
        body: {
          FunctionName: name,
          Runtime: "nodejs22.x",
          Role: `arn:aws:iam::${ACCOUNT}:role/${roleName}`,
          Handler: "index.handler",
          Code: { ZipFile: zip },
          LoggingConfig: { LogFormat: "JSON", LogGroup: `/aws/lambda/${name}` },
        },
      });
      const got = (await motoCall(endpoint, { service: "lambda", method: "GET", path: `/2015-03-31/functions/${name}` })).json<{ Configuration?: { LoggingConfig?: unknown } }>();
      await motoCall(endpoint, { service: "lambda", method: "DELETE", path: `/2015-03-31/functions/${name}` });
      await motoCall(endpoint, { service: "iam", form: { Action: "DeleteRole", Version: "2010-05-08", RoleName: roleName } });
      if (!got.Configuration) throw new Error(`lambda probe: moto did not create the function (${JSON.stringify(got).slice(0, 160)})`);
      return got.Configuration.LoggingConfig === undefined;
    },
  },
  {
    id: "pipes-update",
    what: "an in-place update of the pipe",
    why: "moto has no UpdatePipe; the change rehearsal changes the function and the queue, never the pipe",
    fix: GapFix.Avoided,
    probe: async (endpoint, id) =>
      unimplemented(await motoCall(endpoint, { service: "pipes", method: "PUT", path: `/v1/pipes/rehearsal-probe-${id}`, body: { RoleArn: ROLE, DesiredState: "RUNNING" } })),
  },
  {
    id: "sqs-redrive-policy",
    what: "redrive_policy exactly as AWS serialises it",
    why: "moto re-serialises RedrivePolicy with spaces after ':' and ',', which the provider reads as a change on every plan; the front re-serialises it compactly, as AWS returns it",
    fix: GapFix.Front,
    probe: async (endpoint, id) => {
      // moto refuses a redrive policy naming a queue it does not have, as AWS does.
      const dlq = `rehearsal-probe-dlq-${id}`;
      const { QueueUrl } = (await sqs(endpoint, "CreateQueue", { QueueName: dlq })).json<{ QueueUrl: string }>();
      const policy = JSON.stringify({ deadLetterTargetArn: `arn:aws:sqs:${REGION}:${ACCOUNT}:${dlq}`, maxReceiveCount: 5 });
      const read = await queueAttributes(endpoint, `rehearsal-probe-redrive-${id}`, { RedrivePolicy: policy });
      await sqs(endpoint, "DeleteQueue", { QueueUrl });
      // Only the formatting differs: that is all the front may undo.
      return read.RedrivePolicy !== undefined && read.RedrivePolicy !== policy && JSON.stringify(JSON.parse(read.RedrivePolicy)) === policy;
    },
  },
  {
    id: "sqs-policy-kept",
    what: "a queue policy kept through an update of its queue",
    why: "moto clears a queue's Policy on any SetQueueAttributes that does not name it (AWS keeps every attribute a call does not name, and hashicorp/aws sends only the changed ones); the front adds the queue's current Policy to such a call",
    fix: GapFix.Front,
    probe: async (endpoint, id) => {
      const policy = JSON.stringify({ Version: "2012-10-17", Statement: [{ Effect: "Deny", Principal: "*", Action: "sqs:PurgeQueue", Resource: "*" }] });
      const read = await queueAttributes(endpoint, `rehearsal-probe-policy-${id}`, { Policy: policy }, { VisibilityTimeout: "60" });
      return read.Policy === undefined;
    },
  },
];
