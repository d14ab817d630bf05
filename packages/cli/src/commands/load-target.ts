// Where `soak` and `bench` run: `--target aws` hands the rest of the line to the remote runner (its own --help);
// anything else stays local, without `--target`.
import { REMOTE_HELP, splitTarget } from "../load/remote-args";
import { runRemoteCli } from "../load/remote-cli";
import { LoadTarget, type LoadTool } from "../load/remote-options";
import type { CommandIo } from "./io";

/** `{ exit }` when the line ran against AWS (or printed its help), else `{ rest }`: the local arguments. */
export async function onAwsOrLocal(tool: LoadTool, argv: readonly string[], io: CommandIo): Promise<{ exit: number } | { rest: string[] }> {
  const { target, rest } = splitTarget([...argv]);
  if (target !== LoadTarget.Aws) return { rest };
  if (rest.includes("--help") || rest.includes("-h")) {
    io.stdout(`${REMOTE_HELP}\n`);
    return { exit: 0 };
  }
  return { exit: await runRemoteCli(tool, rest, io) };
}
