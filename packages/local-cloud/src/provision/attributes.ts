import { dnsSuffixOfPartition, partitionOfRegion } from "@effectively-once/contract";
import { arnOf, lambdaInvokeArn, type BlocksByType } from "../terraform-json";
import { UnresolvedReferenceError } from "./errors";
import { resolveString, type AttributeLookup } from "./references";

/** Account id of every local ARN (the same as fauxqs uses). */
const LOCAL_ACCOUNT = "000000000000";

type Attributes = Record<string, string>;

/**
 * The unique id a local role gets (AWS: `AROA` and 17 characters). A role's SQS sends report it as their SenderId
 * (`<unique id>:<session>`, as AWS does for an assumed role), so the tools can tell the workflow's own DLQ copies from
 * messages a producer sent.
 */
export function localRoleUniqueId(roleName: string): string {
  return `AROA${roleName.toUpperCase().slice(0, 17)}`;
}

/** The role name of an IAM role ARN (`arn:aws:iam::<account>:role/<path/>name`). */
export function roleNameOfArn(roleArn: string): string {
  return roleArn.slice(roleArn.lastIndexOf("/") + 1);
}

/**
 * ARNs and ids of resources that are not created locally but are referenced (roles, log groups…),
 * computed the way AWS builds them so the values look and compare like the real ones.
 */
function computedAttributes(type: string, name: string, region: string): Attributes | undefined {
  const env = { partition: partitionOfRegion(region), account: LOCAL_ACCOUNT, region };
  const arn = arnOf(type, name, env);
  if (arn === undefined) return undefined;
  switch (type) {
    case "aws_iam_role":
      return { name, id: name, arn, unique_id: localRoleUniqueId(name) };
    case "aws_cloudwatch_log_group":
    case "aws_dynamodb_table":
    case "aws_pipes_pipe":
      return { name, id: name, arn };
    case "aws_lambda_function":
      return { function_name: name, id: name, arn, qualified_arn: `${arn}:$LATEST`, version: "$LATEST", invoke_arn: lambdaInvokeArn(arn, env) };
    case "aws_sfn_state_machine":
    case "aws_sns_topic":
      return { name, id: arn, arn };
    case "aws_cloudwatch_metric_alarm":
      return { alarm_name: name, id: name, arn };
    default:
      return undefined;
  }
}

/** Data sources whose answer is known locally: the account, partition (the region's) and region every local ARN uses. */
function dataAttributes(type: string, region: string): Attributes | undefined {
  const partition = partitionOfRegion(region);
  switch (type) {
    case "aws_caller_identity":
      return { account_id: LOCAL_ACCOUNT, id: LOCAL_ACCOUNT, arn: `arn:${partition}:iam::${LOCAL_ACCOUNT}:root` };
    case "aws_partition":
      return { partition, id: partition, dns_suffix: dnsSuffixOfPartition(partition) };
    case "aws_region":
      return { name: region, region, id: region };
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
    private readonly resources: BlocksByType,
    private readonly data: BlocksByType,
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
    return resolveString(body[field] as string, this.lookup, `${type}.${name}`, `${type}.${name}.${field}`);
  }

  /** Resolves one reference of a template: a resource attribute, or a data source the local cloud can answer. */
  readonly lookup: AttributeLookup = (ref, usedBy) => {
    if (ref.path.length > 0) throw new UnresolvedReferenceError(ref.address, [ref.attribute, ...ref.path].join("."), usedBy, "only whole attributes are resolved locally, not parts of them");
    if (ref.mode === "managed") return this.attribute(ref.type, ref.name, ref.attribute, usedBy);
    if (!this.data[ref.type]?.[ref.name]) throw new UnresolvedReferenceError(ref.address, ref.attribute, usedBy, "no such data source in the stack");
    const known = dataAttributes(ref.type, this.region);
    const value = known?.[ref.attribute];
    if (value === undefined) throw new UnresolvedReferenceError(ref.address, ref.attribute, usedBy, known ? `the local cloud knows only ${Object.keys(known).join(", ")}` : `data source ${ref.type} is not read locally`);
    return value;
  };

  /** The value of one attribute of one resource of the stack. */
  attribute(type: string, name: string, attribute: string, usedBy: string): string {
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
  }
}
