/**
 * A synthesized stack (`cdktf.out/stacks/<stack>/cdk.tf.json`, Terraform's JSON configuration syntax), read into
 * its blocks. Values stay as written (templates unevaluated); template.ts parses them.
 */
import { existsSync, readFileSync } from "node:fs";
import { StackJsonError } from "./errors";

export type Block = Readonly<Record<string, unknown>>;
/** Blocks by type, then by name: `resource.aws_sqs_queue.dlq`. */
export type BlocksByType = Readonly<Record<string, Readonly<Record<string, Block>>>>;

export interface SynthesizedStack {
  /** Where the stack was read from (for messages). */
  readonly source: string;
  readonly resources: BlocksByType;
  readonly data: BlocksByType;
  readonly outputs: Readonly<Record<string, { readonly value: unknown }>>;
  /** Provider configurations by local name; JSON allows one object or a list (aliases), always a list here. */
  readonly providers: Readonly<Record<string, readonly Block[]>>;
  /** The `terraform` block (`required_providers`, `backend`), empty when absent. */
  readonly terraform: Block;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function blocksByType(json: Record<string, unknown>, key: string, source: string): BlocksByType {
  const value = json[key] ?? {};
  if (!isObject(value)) throw new StackJsonError(`${source}: "${key}" must be an object of types, got ${JSON.stringify(value)}`);
  for (const [type, byName] of Object.entries(value)) {
    if (!isObject(byName)) throw new StackJsonError(`${source}: "${key}.${type}" must be an object of named blocks`);
    for (const [name, body] of Object.entries(byName)) {
      if (!isObject(body)) throw new StackJsonError(`${source}: "${key}.${type}.${name}" must be an object, got ${JSON.stringify(body)}`);
    }
  }
  return value as BlocksByType;
}

/** Reads the blocks of a parsed stack. `source` names it in errors. */
export function parseStack(json: unknown, source: string): SynthesizedStack {
  if (!isObject(json)) throw new StackJsonError(`${source}: a Terraform JSON configuration must be an object`);
  const outputs = json.output ?? {};
  if (!isObject(outputs) || !Object.values(outputs).every((o) => isObject(o) && "value" in o)) {
    throw new StackJsonError(`${source}: every "output.<name>" must be an object with a "value"`);
  }
  const providerBlock = json.provider ?? {};
  if (!isObject(providerBlock)) throw new StackJsonError(`${source}: "provider" must be an object of provider names`);
  const providers = Object.fromEntries(
    Object.entries(providerBlock).map(([name, config]) => {
      const list = Array.isArray(config) ? config : [config];
      if (!list.every(isObject)) throw new StackJsonError(`${source}: "provider.${name}" must be an object or a list of objects`);
      return [name, list as Block[]];
    }),
  );
  const terraform = json.terraform ?? {};
  if (!isObject(terraform)) throw new StackJsonError(`${source}: "terraform" must be an object`);
  return {
    source,
    resources: blocksByType(json, "resource", source),
    data: blocksByType(json, "data", source),
    outputs: outputs as SynthesizedStack["outputs"],
    providers,
    terraform,
  };
}

/** Reads a `cdk.tf.json` file. Throws StackJsonError when it is missing, not JSON or not shaped as a stack. */
export function readStack(path: string): SynthesizedStack {
  if (!existsSync(path)) throw new StackJsonError(`no synthesized stack at ${path}`);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new StackJsonError(`${path} is not JSON: ${(error as Error).message}`, { cause: error });
  }
  return parseStack(json, path);
}

/** The named blocks of one resource type, in file order (`[]` when the stack has none). */
export function resourcesOf(stack: SynthesizedStack, type: string): [string, Block][] {
  return Object.entries(stack.resources[type] ?? {});
}

/** Every managed resource as `{ type, name }`. */
export function resourceList(stack: SynthesizedStack): { type: string; name: string }[] {
  return Object.entries(stack.resources).flatMap(([type, byName]) => Object.keys(byName).map((name) => ({ type, name })));
}

/** The default (alias-less) configuration of a provider, if the stack configures it. */
export function providerConfig(stack: SynthesizedStack, name: string): Block | undefined {
  return stack.providers[name]?.find((config) => config.alias === undefined);
}
