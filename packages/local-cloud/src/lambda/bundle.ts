import { createHash } from "node:crypto";
import { rmSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { unzipSync } from "fflate";
import { processWide } from "../process-wide";
import { InvalidLambdaConfigError } from "./errors";
import type { LambdaBundle } from "./types";

/** A folder holding the function's code, plus how to clean it up. */
export interface PreparedBundle {
  taskRoot: string;
  cleanup(): Promise<void>;
}

/**
 * Resolves the code folder: `dir` as is, or `zipPath` unzipped (with fflate) into a fresh temp folder that
 * cleanup() removes. The files are used byte for byte as deployed.
 */
export async function prepareBundle(functionName: string, bundle: LambdaBundle): Promise<PreparedBundle> {
  if (bundle.dir && bundle.zipPath) {
    throw new InvalidLambdaConfigError(`functions[${functionName}].bundle: give either dir or zipPath, not both`);
  }
  if (bundle.dir) {
    const stat = await fs.stat(bundle.dir).catch(() => undefined);
    if (!stat?.isDirectory()) {
      throw new InvalidLambdaConfigError(`functions[${functionName}].bundle.dir ${bundle.dir} is not a folder`);
    }
    return { taskRoot: path.resolve(bundle.dir), cleanup: async () => undefined };
  }
  if (bundle.zipPath) return unzipBundle(functionName, bundle.zipPath);
  throw new InvalidLambdaConfigError(
    `functions[${functionName}].bundle needs dir (the esbuild output folder) or zipPath (the TerraformAsset archive)`,
  );
}

/** Folders unzipped by this process and not cleaned up yet. */
const unpacked = new Set<string>();

/**
 * The last resort for a process that exits without stopping its runner (process.exit in a signal handler, an
 * uncaught error): 'exit' handlers may only do synchronous work, so the folders go with rmSync.
 */
function removeAtExit(taskRoot: string): void {
  if (unpacked.size === 0) {
    process.once("exit", () => {
      for (const dir of unpacked) rmSync(dir, { recursive: true, force: true });
    });
  }
  unpacked.add(taskRoot);
}

/**
 * The archives this process has inflated, by the SHA-256 of their bytes: a process that starts many runners on the
 * same deployed archive (a test run starts a cloud per suite) inflates it once. The files are still written afresh
 * into each runner's own folder; only the decompression is shared, and the entries are never modified. The map is
 * one per process even where each test file loads this module anew (`processWide`).
 */
/** Distinct archives kept: a process deploys a handful (the bundle is about 0.8 MB inflated). */
const MAX_INFLATED_ARCHIVES = 8;

function inflated(bytes: Buffer): Record<string, Uint8Array> {
  const key = createHash("sha256").update(bytes).digest("hex");
  const archives = processWide("inflated-lambda-archives", () => new Map<string, Record<string, Uint8Array>>());
  const known = archives.get(key);
  if (known) return known;
  const entries = unzipSync(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  if (archives.size >= MAX_INFLATED_ARCHIVES) archives.delete(archives.keys().next().value as string);
  archives.set(key, entries);
  return entries;
}

async function unzipBundle(functionName: string, zipPath: string): Promise<PreparedBundle> {
  const bytes = await fs.readFile(zipPath).catch((error: unknown) => {
    throw new InvalidLambdaConfigError(`functions[${functionName}].bundle.zipPath ${zipPath} cannot be read`, { cause: error });
  });
  let entries: Record<string, Uint8Array>;
  try {
    entries = inflated(bytes);
  } catch (error) {
    throw new InvalidLambdaConfigError(`functions[${functionName}].bundle.zipPath ${zipPath} is not a zip archive`, {
      cause: error,
    });
  }
  const taskRoot = await fs.mkdtemp(path.join(os.tmpdir(), `lambda-${functionName.replace(/[^\w-]/g, "_")}-`));
  removeAtExit(taskRoot);
  const cleanup = async () => {
    await fs.rm(taskRoot, { recursive: true, force: true });
    unpacked.delete(taskRoot);
  };
  try {
    for (const [name, content] of Object.entries(entries)) {
      const target = path.resolve(taskRoot, name);
      // Refuse entries that would land outside the folder ("zip slip").
      if (target !== taskRoot && !target.startsWith(taskRoot + path.sep)) {
        throw new InvalidLambdaConfigError(`functions[${functionName}].bundle.zipPath has an entry outside the archive root: ${name}`);
      }
      if (name.endsWith("/")) {
        await fs.mkdir(target, { recursive: true });
        continue;
      }
      await fs.mkdir(path.dirname(target), { recursive: true });
      await fs.writeFile(target, content);
    }
  } catch (error) {
    await cleanup();
    throw error;
  }
  return { taskRoot, cleanup };
}
