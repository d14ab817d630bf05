import { UnresolvedReferenceError } from "./errors";
import type { AttributeLookup } from "./references";
import type { ResourceBody } from "./stack-file";

/** Account id of every local ARN (the same as fauxqs uses). */
export const LOCAL_ACCOUNT = "000000000000";

type Attributes = Record<string, string>;

/**
 * ARNs and ids of resources that are not created locally but are referenced (roles, log groups…),
 * computed the way AWS builds them so the values look and compare like the real ones.
 */
function computedAttributes(type: string, name: string, region: string): Attributes | undefined {
  const arn = (service: string, resource: string, withRegion = true) =>
    `arn:aws:${service}:${withRegion ? region : ""}:${LOCAL_ACCOUNT}:${resource}`;
  switch (type) {
    case "aws_iam_role":
      return { name, id: name, arn: arn("iam", `role/${name}`, false), unique_id: `AROA${name.toUpperCase().slice(0, 17)}` };
    case "aws_cloudwatch_log_group":
      return { name, id: name, arn: arn("logs", `log-group:${name}`) };
    case "aws_dynamodb_table":
      return { name, id: name, arn: arn("dynamodb", `table/${name}`) };
    case "aws_lambda_function": {
      const fnArn = arn("lambda", `function:${name}`);
      return { function_name: name, id: name, arn: fnArn, qualified_arn: `${fnArn}:$LATEST`, version: "$LATEST", invoke_arn: `arn:aws:apigateway:${region}:lambda:path/2015-03-31/functions/${fnArn}/invocations` };
    }
    case "aws_sfn_state_machine": {
      const smArn = arn("states", `stateMachine:${name}`);
      return { name, id: smArn, arn: smArn };
    }
    case "aws_pipes_pipe":
      return { name, id: name, arn: arn("pipes", `pipe/${name}`) };
    case "aws_cloudwatch_metric_alarm":
      return { alarm_name: name, id: name, arn: arn("cloudwatch", `alarm:${name}`) };
    case "aws_sns_topic":
      return { name, id: arn("sns", name), arn: arn("sns", name) };
    default:
      return undefined;
  }
}

const NAME_FIELDS = ["name", "function_name", "alarm_name", "dashboard_name"] as const;

/**
 * The value of every `${type.name.attribute}` the stack uses: attributes of resources created locally (queue
 * URLs and ARNs as the emulator returns them) take precedence over computed ones.
 */
export class AttributeRegistry {
  private readonly created = new Map<string, Attributes>();

  constructor(
    private readonly resources: Record<string, Record<string, ResourceBody>>,
    private readonly region: string,
  ) {}

  /** Records the attributes of a resource the local cloud created (e.g. a queue's URL). */
  record(type: string, name: string, attributes: Attributes): void {
    this.created.set(`${type}.${name}`, { ...this.created.get(`${type}.${name}`), ...attributes });
  }

  /** The resource's own name argument, resolved (names may themselves be references). */
  nameOf(type: string, name: string): string {
    const body = this.resources[type]?.[name];
    const field = body && NAME_FIELDS.find((f) => typeof body[f] === "string");
    if (!body || !field) throw new UnresolvedReferenceError(`${type}.${name}`, "name", `${type}.${name}`, "the resource has no literal name");
    return (body[field] as string).replace(/\$\{[^}]+\}/g, (ref) => {
      const m = /^\$\{([a-z0-9_]+)\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_]+)\}$/.exec(ref);
      if (!m) throw new UnresolvedReferenceError(`${type}.${name}`, field, `${type}.${name}`, `its name uses ${ref}`);
      return this.lookup(m[1], m[2], m[3], `${type}.${name}`);
    });
  }

  readonly lookup: AttributeLookup = (type, name, attribute, usedBy) => {
    const address = `${type}.${name}`;
    if (!this.resources[type]?.[name]) {
      throw new UnresolvedReferenceError(address, attribute, usedBy, "no such resource in the stack");
    }
    const created = this.created.get(address)?.[attribute];
    if (created !== undefined) return created;
    const computed = computedAttributes(type, this.nameOf(type, name), this.region);
    const value = computed?.[attribute];
    if (value === undefined) {
      const known = [...new Set([...Object.keys(this.created.get(address) ?? {}), ...Object.keys(computed ?? {})])];
      throw new UnresolvedReferenceError(address, attribute, usedBy, known.length ? `the local cloud knows only ${known.join(", ")}` : `${type} is not emulated`);
    }
    return value;
  };
}
