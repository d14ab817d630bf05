import { motoCall } from "./moto-http";

/** What moto still holds, per service, after the destroy: a complete teardown leaves every list empty. */
export async function leftovers(endpoint: string): Promise<string[]> {
  const found: string[] = [];
  const queues = (await motoCall(endpoint, { service: "sqs", target: "AmazonSQS.ListQueues", body: {} })).json<{ QueueUrls?: string[] }>();
  found.push(...(queues.QueueUrls ?? []).map((u) => `queue ${u.split("/").pop()}`));
  const tables = (await motoCall(endpoint, { service: "dynamodb", target: "DynamoDB_20120810.ListTables", body: {} })).json<{ TableNames?: string[] }>();
  found.push(...(tables.TableNames ?? []).map((t) => `table ${t}`));
  const fns = (await motoCall(endpoint, { service: "lambda", method: "GET", path: "/2015-03-31/functions" })).json<{ Functions?: { FunctionName: string }[] }>();
  found.push(...(fns.Functions ?? []).map((f) => `function ${f.FunctionName}`));
  const machines = (await motoCall(endpoint, { service: "states", target: "AWSStepFunctions.ListStateMachines", body: {} })).json<{ stateMachines?: { name: string }[] }>();
  found.push(...(machines.stateMachines ?? []).map((m) => `state machine ${m.name}`));
  const pipes = (await motoCall(endpoint, { service: "pipes", method: "GET", path: "/v1/pipes" })).json<{ Pipes?: { Name: string }[] }>();
  found.push(...(pipes.Pipes ?? []).map((p) => `pipe ${p.Name}`));
  const groups = (await motoCall(endpoint, { service: "logs", target: "Logs_20140328.DescribeLogGroups", body: {} })).json<{ logGroups?: { logGroupName: string }[] }>();
  found.push(...(groups.logGroups ?? []).map((g) => `log group ${g.logGroupName}`));
  const roles = await motoCall(endpoint, { service: "iam", form: { Action: "ListRoles", Version: "2010-05-08" } });
  found.push(...[...roles.text.matchAll(/<RoleName>([^<]+)<\/RoleName>/g)].map((m) => `role ${m[1]}`));
  return found;
}
