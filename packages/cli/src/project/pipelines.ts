import { OutputName } from "@effectively-once/contract";
import { UsageError } from "./errors";

type Json = Record<string, unknown>;
type Blocks = Record<string, Record<string, Json>>;

/** One `IdempotentPipeline` of a synthesized stack: its construct path and the prefix of its outputs. */
export interface StackPipeline {
  /** The construct's id (the last part of its path), what `--pipeline` names. */
  readonly id: string;
  /** The construct path, e.g. `shipments/pipeline`. */
  readonly path: string;
  /** The construct's `outputPrefix` ("" when it sets none). */
  readonly outputPrefix: string;
}

/** The construct path cdktf records in a block's metadata. */
const pathOf = (block: Json): string => String(((block["//"] as Json | undefined)?.metadata as Json | undefined)?.path ?? "");
/** The pipe the construct adds is `<pipeline>/pipe/pipe`; its workflow `<pipeline>/workflow/state-machine`. */
const PIPE_PATH = /^(.*)\/pipe\/pipe$/;
const OUTPUT_NAMES: readonly string[] = Object.values(OutputName);

/** The pipelines of a synthesized stack (cdk.tf.json), found by the pipe and state machine the construct adds. */
export function pipelinesOf(stack: Json): StackPipeline[] {
  const resources = (stack.resource ?? {}) as Blocks;
  const machines = Object.entries(resources.aws_sfn_state_machine ?? {});
  const outputs = Object.entries((stack.output ?? {}) as Record<string, Json>);
  return Object.values(resources.aws_pipes_pipe ?? {}).flatMap((pipe) => {
    const path = PIPE_PATH.exec(pathOf(pipe))?.[1];
    const machine = machines.find(([, body]) => pathOf(body) === `${path}/workflow/state-machine`);
    if (path === undefined || !machine) return [];
    const arnOutput = outputs.find(([key, body]) => key.endsWith(OutputName.StateMachineArn) && String(body.value).startsWith(`\${aws_sfn_state_machine.${machine[0]}.`));
    const outputPrefix = arnOutput ? arnOutput[0].slice(0, -OutputName.StateMachineArn.length) : "";
    return [{ id: path.split("/").pop() ?? path, path, outputPrefix }];
  });
}

/**
 * The one pipeline a per-pipeline command reads: the stack's only one, or the one `--pipeline` names. Refuses a
 * stack without one, and a stack with several when `--pipeline` names none of them.
 */
export function choosePipeline(stack: Json, where: string, wanted: string | undefined): { chosen: StackPipeline; all: StackPipeline[] } {
  const all = pipelinesOf(stack);
  if (all.length === 0) throw new UsageError(`${where} has no IdempotentPipeline (no aws_pipes_pipe at <pipeline>/pipe/pipe beside its state machine): point --stack-file or --stack at the stack that adds the construct`);
  const ids = all.map((p) => p.id).join(", ");
  if (wanted === undefined) {
    if (all.length > 1) throw new UsageError(`${where} holds ${all.length} pipelines (${ids}): pass --pipeline <id> to pick one`);
    return { chosen: all[0], all };
  }
  const chosen = all.find((p) => p.id === wanted);
  if (!chosen) throw new UsageError(`--pipeline ${wanted}: ${where} has no pipeline of that id; it has ${ids}`);
  return { chosen, all };
}

/**
 * The stack as if it held only `chosen`: the other pipelines' resources and outputs left out, the chosen one's outputs
 * under their unprefixed names (what the single-pipeline readers look up). Shared blocks (provider, the team's own
 * tables) stay.
 */
export function narrowToPipeline(stack: Json, chosen: StackPipeline, all: readonly StackPipeline[]): Json {
  const others = all.filter((p) => p !== chosen);
  const keep = (block: Json) => !others.some((p) => pathOf(block).startsWith(`${p.path}/`));
  const narrowBlocks = (blocks: unknown): Blocks =>
    Object.fromEntries(Object.entries((blocks ?? {}) as Blocks).map(([type, byName]) => [type, Object.fromEntries(Object.entries(byName).filter(([, body]) => keep(body)))]));
  const ownerOf = (key: string): StackPipeline | undefined =>
    [...all].sort((a, b) => b.outputPrefix.length - a.outputPrefix.length).find((p) => key.startsWith(p.outputPrefix) && OUTPUT_NAMES.includes(key.slice(p.outputPrefix.length)));
  const output = Object.entries((stack.output ?? {}) as Record<string, Json>).flatMap(([key, body]): [string, Json][] => {
    const owner = ownerOf(key);
    if (owner === undefined) return [[key, body]];
    return owner === chosen ? [[key.slice(chosen.outputPrefix.length), body]] : [];
  });
  return { ...stack, resource: narrowBlocks(stack.resource), ...(stack.data ? { data: narrowBlocks(stack.data) } : {}), output: Object.fromEntries(output) };
}
