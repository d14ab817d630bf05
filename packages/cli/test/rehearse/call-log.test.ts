import { matchRoute, type RestRoute } from "../../src/terraform/rehearse/api-routes";
import { CallLog, type HttpRequestSeen } from "../../src/terraform/rehearse/call-log";

/** Two of Lambda's REST routes as botocore's model writes them. */
const ROUTES: RestRoute[] = [
  { operation: "GetFunction", method: "GET", segments: ["2015-03-31", "functions", "{FunctionName}"], query: [] },
  { operation: "ListVersionsByFunction", method: "GET", segments: ["2015-03-31", "functions", "{FunctionName}", "versions"], query: [] },
  { operation: "CreateFunction", method: "POST", segments: ["2015-03-31", "functions"], query: [] },
];
const auth = (service: string) => ({ authorization: `AWS4-HMAC-SHA256 Credential=AKIAREHEARSAL0000000/20261202/eu-west-1/${service}/aws4_request, SignedHeaders=host, Signature=0` });
const request = (service: string, extra: Partial<HttpRequestSeen>): HttpRequestSeen => ({ method: "POST", url: "/", body: Buffer.alloc(0), ...extra, headers: { ...auth(service), ...extra.headers } });

describe("Class: CallLog (the rehearsal's call recording)", () => {
  const log = () => new CallLog(() => "123456789012", new Map([["lambda", ROUTES]]), () => new Map([["AlarmNames", ["payments-dlq-depth"]]]));

  it("names JSON, query, RPCv2 CBOR and REST calls with the resource IAM authorizes them against, counting repeats by step", () => {
    const calls = log();
    calls.phase = "apply";
    calls.see(request("sqs", { headers: { "x-amz-target": "AmazonSQS.GetQueueAttributes" }, body: Buffer.from(JSON.stringify({ QueueUrl: "http://127.0.0.1:5000/123456789012/payments-queue" })) }));
    calls.see(request("sqs", { headers: { "x-amz-target": "AmazonSQS.GetQueueAttributes" }, body: Buffer.from(JSON.stringify({ QueueUrl: "http://127.0.0.1:5000/123456789012/payments-queue" })) }));
    calls.see(request("iam", { headers: { "content-type": "application/x-www-form-urlencoded; charset=utf-8" }, body: Buffer.from("Action=GetRole&RoleName=payments-pipe-role&Version=2010-05-08") }));
    calls.see(request("monitoring", { url: "/service/GraniteServiceVersion20100801/operation/DescribeAlarms" }));
    calls.phase = "destroy";
    calls.see(request("lambda", { method: "GET", url: "/2015-03-31/functions/payments-charge/versions?MaxItems=50" }));
    calls.see(request("states", { headers: { "x-amz-target": "AWSStepFunctions.CreateStateMachine" }, body: Buffer.from(JSON.stringify({ name: "payments-workflow", roleArn: "arn:aws:iam::123456789012:role/payments-workflow-role" })) }));
    calls.see({ method: "GET", url: "/", headers: {}, body: Buffer.alloc(0) });
    expect(calls.calls()).toEqual([
      { phase: "apply", action: "sqs:GetQueueAttributes", resource: "arn:aws:sqs:eu-west-1:123456789012:payments-queue", count: 2 },
      { phase: "apply", action: "iam:GetRole", resource: "arn:aws:iam::123456789012:role/payments-pipe-role", count: 1 },
      { phase: "apply", action: "cloudwatch:DescribeAlarms", resource: "arn:aws:cloudwatch:eu-west-1:123456789012:alarm:payments-dlq-depth", count: 1 },
      { phase: "destroy", action: "lambda:ListVersionsByFunction", resource: "arn:aws:lambda:eu-west-1:123456789012:function:payments-charge", count: 1 },
      { phase: "destroy", action: "states:CreateStateMachine", resource: "arn:aws:states:eu-west-1:123456789012:stateMachine:payments-workflow", count: 1 },
      { phase: "destroy", action: "iam:PassRole", resource: "arn:aws:iam::123456789012:role/payments-workflow-role", context: [["iam:PassedToService", "states.amazonaws.com"]], count: 1 },
    ]);
  });

  it("prefers the most literal REST route and names a request no route matches", () => {
    expect(matchRoute(ROUTES, "GET", "/2015-03-31/functions/f")?.operation).toBe("GetFunction");
    expect(matchRoute(ROUTES, "GET", "/2015-03-31/functions/f/versions")?.operation).toBe("ListVersionsByFunction");
    const calls = log();
    calls.see(request("lambda", { method: "DELETE", url: "/2099-01-01/nothing" }));
    expect(calls.calls()[0].action).toBe("lambda:UNKNOWN DELETE /2099-01-01/nothing");
  });
});
