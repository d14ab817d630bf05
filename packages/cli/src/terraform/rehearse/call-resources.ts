/** What a request is: the signing scope (service, region) and the operation with its parameters. */
export interface IdentifiedCall {
  readonly service: string;
  readonly region: string;
  readonly operation: string;
  readonly params: ReadonlyMap<string, unknown>;
}

/** One authorization IAM makes for a call. */
export interface Authorized {
  readonly action: string;
  readonly resource: string;
  readonly context?: readonly (readonly [string, string])[];
}

/**
 * The resource IAM authorizes a call against, built from the request's own identifiers the way the Service
 * Authorization Reference writes each service's ARNs. `*` where the action has no resource-level permissions or the
 * request names no resource. The rehearsal's partition is `aws` (moto's).
 */

const PASSED_TO = new Map([
  ["states", "states.amazonaws.com"],
  ["pipes", "pipes.amazonaws.com"],
  ["lambda", "lambda.amazonaws.com"],
]);

/** Parameters that carry a role the call hands to its service (iam:PassRole), by service. */
const ROLE_PARAMS = new Map([
  ["states", "roleArn"],
  ["pipes", "RoleArn"],
  ["lambda", "Role"],
]);

const text = (value: unknown): string | undefined => (typeof value === "string" && value !== "" ? value : undefined);
const texts = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : []);

/** The form-encoded list `AlarmNames.member.1`, `AlarmNames.member.2`… of a query request. */
function memberList(params: ReadonlyMap<string, unknown>, name: string): string[] {
  const direct = texts(params.get(name));
  if (direct.length) return direct;
  return [...params.entries()].filter(([k]) => k.startsWith(`${name}.member.`)).map(([, v]) => String(v));
}

function resources(call: IdentifiedCall, account: string, prefix: string): string[] {
  const p = call.params;
  const arn = (resource: string, region = call.region) => `arn:aws:${prefix}:${region}:${account}:${resource}`;
  const given = text(p.get("ResourceArn")) ?? text(p.get("resourceArn")) ?? text(p.get("ResourceARN")) ?? text(p.get("Resource")) ?? text(p.get("ARN"));
  switch (call.service) {
    case "sqs": {
      const url = text(p.get("QueueUrl"));
      if (url) {
        const [, owner, name] = new URL(url).pathname.split("/");
        return [`arn:aws:sqs:${call.region}:${owner}:${name}`];
      }
      const name = text(p.get("QueueName"));
      return name ? [arn(name)] : ["*"];
    }
    case "dynamodb": {
      const table = text(p.get("TableName"));
      return given ? [given] : table ? [arn(`table/${table}`)] : ["*"];
    }
    case "states": {
      const machine = text(p.get("stateMachineArn")) ?? given;
      if (machine) return [machine];
      const name = text(p.get("name"));
      return call.operation === "CreateStateMachine" && name ? [arn(`stateMachine:${name}`)] : ["*"];
    }
    case "logs": {
      const group = text(p.get("logGroupName")) ?? text(p.get("logGroupIdentifier"));
      if (given) return [given.replace(/:\*$/, "")];
      if (group) return [group.startsWith("arn:") ? group : arn(`log-group:${group}`)];
      return ["*"];
    }
    case "monitoring": {
      const alarms = [...memberList(p, "AlarmNames"), ...(text(p.get("AlarmName")) ? [text(p.get("AlarmName"))!] : [])];
      const dashboards = [...memberList(p, "DashboardNames"), ...(text(p.get("DashboardName")) ? [text(p.get("DashboardName"))!] : [])];
      if (given) return [given];
      if (alarms.length) return alarms.map((a) => arn(`alarm:${a}`));
      if (dashboards.length) return dashboards.map((d) => arn(`dashboard/${d}`, ""));
      return ["*"];
    }
    case "iam": {
      const role = text(p.get("RoleName"));
      return role ? [`arn:aws:iam::${account}:role/${role}`] : ["*"];
    }
    case "lambda": {
      const fn = text(p.get("FunctionName"));
      if (given) return [given];
      if (!fn) return ["*"];
      return [fn.startsWith("arn:") ? fn.split(":").slice(0, 7).join(":") : arn(`function:${fn}`)];
    }
    case "pipes": {
      const name = text(p.get("Name"));
      return given ? [given] : name ? [arn(`pipe/${name}`)] : ["*"];
    }
    default:
      return ["*"];
  }
}

/** What IAM authorizes for one call: the call itself on each of its resources, and iam:PassRole for a role it hands over. */
export function callResource(call: IdentifiedCall, account: string, prefix: string): Authorized[] {
  const out: Authorized[] = resources(call, account, prefix).map((resource) => ({ action: `${prefix}:${call.operation}`, resource }));
  const roleParam = ROLE_PARAMS.get(call.service);
  const role = roleParam ? text(call.params.get(roleParam)) : undefined;
  if (role && /^(Create|Update)/.test(call.operation)) {
    out.push({ action: "iam:PassRole", resource: role, context: [["iam:PassedToService", PASSED_TO.get(call.service)!]] });
  }
  return out;
}
