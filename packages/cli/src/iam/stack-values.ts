import { dnsSuffixOfPartition } from "@effectively-once/contract";
import { arnOf, mapTemplates, queueUrlOf, renderTemplate, type ArnEnv, type Block, type ResourceReference, type SynthesizedStack } from "@effectively-once/local-cloud/terraform-json";

/** A reference in a stack that these tools cannot give a value to, named with what to do. */
class UnresolvableReferenceError extends Error {
  constructor(ref: ResourceReference, where: string, why: string) {
    super(`${where}: cannot evaluate \${${ref.address}.${ref.attribute}}: ${why}`);
    this.name = "UnresolvableReferenceError";
  }
}

const NAME_FIELDS = ["name", "function_name", "alarm_name", "dashboard_name"] as const;

/** The resource's own name, resolved (names may be templates themselves). */
export function nameOf(stack: SynthesizedStack, type: string, name: string, env: ArnEnv): string | undefined {
  const block = stack.resources[type]?.[name];
  const field = block && NAME_FIELDS.find((f) => typeof block[f] === "string");
  return field ? resolveText(stack, block[field] as string, env, `${type}.${name}.${field}`) : undefined;
}

/**
 * The value Terraform gives one reference once applied in `env`: names, ids, ARNs and queue URLs of the stack's
 * resources, and the account, partition and region data sources. Anything else is refused by name.
 */
function valueOf(stack: SynthesizedStack, ref: ResourceReference, env: ArnEnv, where: string): string {
  if (ref.path.length) throw new UnresolvableReferenceError(ref, where, "only whole attributes are evaluated");
  if (ref.mode === "data") {
    const data = new Map([
      ["aws_caller_identity.account_id", env.account],
      ["aws_partition.partition", env.partition],
      ["aws_partition.dns_suffix", dnsSuffixOfPartition(env.partition)],
      ["aws_region.name", env.region],
      ["aws_region.region", env.region],
      ["aws_region.id", env.region],
    ]);
    const value = data.get(`${ref.type}.${ref.attribute}`);
    if (value === undefined) throw new UnresolvableReferenceError(ref, where, "only the account, partition and region data sources are known");
    return value;
  }
  const name = nameOf(stack, ref.type, ref.name, env);
  if (name === undefined) throw new UnresolvableReferenceError(ref, where, "the resource has no name of its own in the stack");
  const arn = arnOf(ref.type, name, env);
  const attributes = new Map<string, string | undefined>([
    ["name", name],
    ["function_name", name],
    ["arn", arn],
    // What the provider sets as `id`: the name for most types, the ARN for a state machine, the URL for a queue.
    ["id", ref.type === "aws_sfn_state_machine" ? arn : ref.type === "aws_sqs_queue" ? queueUrlOf(name, env) : name],
    ["url", ref.type === "aws_sqs_queue" ? queueUrlOf(name, env) : undefined],
  ]);
  const value = attributes.get(ref.attribute);
  if (value === undefined) throw new UnresolvableReferenceError(ref, where, `${ref.type}.${ref.attribute} is not evaluated here (add it to packages/cli/src/iam/stack-values.ts)`);
  return value;
}

export function resolveText(stack: SynthesizedStack, text: string, env: ArnEnv, where: string): string {
  return renderTemplate(text, (ref) => valueOf(stack, ref, env, where), {
    where,
    expression: (source) => {
      throw new Error(`${where}: ${source} is a Terraform expression, not a reference; these tools evaluate references only`);
    },
  })!;
}

/** A block with every template evaluated in `env`. */
export function resolveBlock(stack: SynthesizedStack, block: Block, env: ArnEnv, where: string): Block {
  return mapTemplates(block, (text, path) => resolveText(stack, text, env, path), where);
}
