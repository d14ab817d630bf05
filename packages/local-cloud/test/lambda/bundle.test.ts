import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { strToU8, zipSync } from "fflate";
import { createLambdaRunner } from "../../src/lambda";
import { InvalidLambdaConfigError } from "../../src/lambda/errors";
import type { LambdaRunner } from "../../src/lambda";
import type { LambdaFunctionConfig } from "../../src/lambda/types";
import { BASIC_HANDLER, buildHandlerBundle } from "./fixture";

const arn = (name: string) => `arn:aws:lambda:us-east-1:123456789012:function:${name}`;
let bundle: { dir: string; cleanup(): Promise<void> };
let workDir: string;
const runners: LambdaRunner[] = [];

beforeAll(async () => {
  bundle = await buildHandlerBundle(BASIC_HANDLER);
  workDir = await fs.mkdtemp(path.join(os.tmpdir(), "lambda-bundle-test-"));
});

afterAll(async () => {
  await Promise.all(runners.map((r) => r.stop()));
  await bundle?.cleanup();
  await fs.rm(workDir, { recursive: true, force: true });
});

/** Zips files the way cdktf's TerraformAsset archives a folder. */
async function writeZip(name: string, files: Record<string, Uint8Array>): Promise<string> {
  const zipPath = path.join(workDir, name);
  await fs.writeFile(zipPath, zipSync(files));
  return zipPath;
}

async function runnerFor(functions: LambdaFunctionConfig[]): Promise<LambdaRunner> {
  const runner = await createLambdaRunner({ functions, logs: "silent" });
  runners.push(runner);
  return runner;
}

const payloadOf = async (runner: LambdaRunner, name: string, event: unknown) =>
  JSON.parse((await runner.invoke({ FunctionName: name, Payload: JSON.stringify(event) })).Payload) as Record<string, any>;

describe("Lambda bundles", () => {
  it("runs a TerraformAsset archive.zip, byte for byte, from a temp folder removed on stop()", async () => {
    // Arrange
    const code = await fs.readFile(path.join(bundle.dir, "index.js"));
    const zipPath = await writeZip("archive.zip", { "index.js": new Uint8Array(code) });
    const runner = await createLambdaRunner({
      functions: [{ name: "zipped", arn: arn("zipped"), bundle: { zipPath } }],
      logs: "silent",
    });
    // Act
    const { LAMBDA_TASK_ROOT: root } = await payloadOf(runner, "zipped", { action: "env", keys: ["LAMBDA_TASK_ROOT"] });
    const unzipped = await fs.readFile(path.join(root, "index.js"));
    const { count } = await payloadOf(runner, "zipped", { action: "count" });
    await runner.stop();
    // Assert
    expect(root.startsWith(os.tmpdir())).toBe(true);
    expect(unzipped.equals(code)).toBe(true);
    expect(count).toBe(2);
    await expect(fs.stat(root)).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("inflates an archive once per process, yet gives each runner its own folder, and a changed archive its new code", async () => {
    // Arrange: two runners on one archive, the second from a fresh module registry (a test run starts a cloud per
    // suite on the same deployed zip, and jest loads the local cloud anew for each test file)
    const code = await fs.readFile(path.join(bundle.dir, "index.js"));
    const zipPath = await writeZip("shared.zip", { "index.js": new Uint8Array(code), "shared.txt": strToU8("an archive no other test writes") });
    type Fflate = typeof import("fflate");
    type Lambda = typeof import("../../src/lambda");
    let fresh: { fflate: Fflate; lambda: Lambda } | undefined;
    jest.isolateModules(() => {
      fresh = { fflate: jest.requireActual<Fflate>("fflate"), lambda: jest.requireActual<Lambda>("../../src/lambda") };
    });
    // The module objects the runners' code calls (an `import * as` would be a copy).
    const inflate = jest.spyOn(jest.requireActual<Fflate>("fflate"), "unzipSync");
    const freshInflate = jest.spyOn(fresh!.fflate, "unzipSync");
    const rootOf = async (runner: LambdaRunner) => (await payloadOf(runner, "shared", { action: "env", keys: ["LAMBDA_TASK_ROOT"] })).LAMBDA_TASK_ROOT as string;
    const config = { name: "shared", arn: arn("shared"), bundle: { zipPath } };
    // Act
    const first = await createLambdaRunner({ functions: [config], logs: "silent" });
    const firstRoot = await rootOf(first);
    await first.stop();
    const second = await fresh!.lambda.createLambdaRunner({ functions: [config], logs: "silent" });
    runners.push(second);
    const secondRoot = await rootOf(second);
    const inflations = [inflate.mock.calls.length, freshInflate.mock.calls.length];
    await writeZip("shared.zip", { "index.js": strToU8("exports.handler = async () => 'changed';") });
    const changed = await runnerFor([config]);
    const answer = JSON.parse((await changed.invoke({ FunctionName: "shared", Payload: "{}" })).Payload) as unknown;
    inflate.mockRestore();
    freshInflate.mockRestore();
    // Assert
    expect(inflations).toEqual([1, 0]);
    expect(secondRoot).not.toBe(firstRoot);
    expect((await fs.readFile(path.join(secondRoot, "index.js"))).equals(code)).toBe(true);
    await expect(fs.stat(firstRoot)).rejects.toMatchObject({ code: "ENOENT" });
    expect(answer).toBe("changed");
  });

  it("finds handlers in sub-folders of the archive (handler 'src/app.handler')", async () => {
    const zipPath = await writeZip("nested.zip", {
      "src/app.js": strToU8("exports.handler = async (event) => ({ from: 'src/app.js', event });"),
    });
    const runner = await runnerFor([{ name: "deep", arn: arn("deep"), bundle: { zipPath }, handler: "src/app.handler" }]);
    expect(await payloadOf(runner, "deep", { a: 1 })).toEqual({ from: "src/app.js", event: { a: 1 } });
  });

  it.each([
    ["missing.handler", "Runtime.ImportModuleError", /^Error: Cannot find module 'missing'/],
    ["broken.handler", "Runtime.UserCodeSyntaxError", /^SyntaxError: /],
    ["throws.handler", "Error", /^init failed$/],
  ])("reports init failures like the runtime (%s)", async (handler, errorType, message) => {
    const zipPath = await writeZip(`init-${handler}.zip`, {
      "broken.js": strToU8("exports.handler = async () => {;"),
      "throws.js": strToU8("throw new Error('init failed');"),
    });
    const name = `init-${handler.split(".")[0]}`;
    const runner = await runnerFor([{ name, arn: arn(name), bundle: { zipPath }, handler }]);
    const response = await runner.invoke({ FunctionName: name, Payload: "{}" });
    expect(response.FunctionError).toBe("Unhandled");
    const error = JSON.parse(response.Payload) as { errorType: string; errorMessage: string };
    expect(error.errorType).toBe(errorType);
    expect(error.errorMessage).toMatch(message);
  });

  it("reports a handler that outgrows its memory as Runtime.OutOfMemory", async () => {
    const zipPath = await writeZip("hog.zip", {
      "index.js": strToU8("const hog = []; exports.handler = async () => { for (;;) hog.push(new Array(1e6).fill(Math.random())); };"),
    });
    const runner = await runnerFor([{ name: "hog", arn: arn("hog"), bundle: { zipPath }, memoryMb: 128, timeoutSeconds: 20 }]);
    const response = await runner.invoke({ FunctionName: "hog", Payload: "{}" });
    expect(JSON.parse(response.Payload)).toMatchObject({ errorType: "Runtime.OutOfMemory" });
  });

  it("refuses an archive entry that would land outside its folder", async () => {
    const zipPath = await writeZip("slip.zip", { "../evil.js": strToU8("exports.handler = async () => 1;") });
    await expect(createLambdaRunner({ functions: [{ name: "slip", arn: arn("slip"), bundle: { zipPath } }] })).rejects.toThrow(
      /entry outside the archive root: \.\.\/evil\.js/,
    );
  });

  it("accepts an environment of exactly Lambda's 4,096 bytes, measured as UTF-8", async () => {
    // {"BIG":"é…é"}: 10 bytes of JSON around 2,043 two-byte characters.
    const runner = await runnerFor([{ name: "edge", arn: arn("edge"), bundle: { dir: bundle.dir }, env: { BIG: "é".repeat(2043) } }]);
    expect(await payloadOf(runner, "edge", { action: "env", keys: ["BIG"] })).toEqual({ BIG: "é".repeat(2043) });
  });

  it.each<[Partial<LambdaFunctionConfig>, RegExp]>([
    [{ env: { AWS_REGION: "eu-west-1" } }, /env\.AWS_REGION is reserved by Lambda/],
    [{ env: { _LEADING: "x" } }, /env has an invalid name "_LEADING"/],
    // {"BIG":"é…éx"}: 4,097 UTF-8 bytes in 2,054 characters; Lambda counts bytes.
    [{ env: { BIG: `${"é".repeat(2043)}x` } }, /env is 4097 bytes as Lambda measures it .*over Lambda's 4096.*trim it by 1 bytes/],
    [{ arn: "arn:aws:lambda:us-east-1:123:function:bad" }, /functions\[0\]\.arn must be/],
    [{ bundle: {} }, /bundle needs dir .* or zipPath/],
    [{ bundle: { dir: "/nonexistent-folder" } }, /bundle\.dir \/nonexistent-folder is not a folder/],
    [{ timeoutSeconds: 0 }, /timeoutSeconds must be above 0/],
    [{ memoryMb: 64 }, /memoryMb must be a whole number from 128/],
  ])("rejects bad configuration naming the field (%#)", async (override, message) => {
    const config: LambdaFunctionConfig = { name: "bad", arn: arn("bad"), bundle: { dir: bundle.dir }, ...override };
    await expect(createLambdaRunner({ functions: [config] })).rejects.toThrow(InvalidLambdaConfigError);
    await expect(createLambdaRunner({ functions: [config] })).rejects.toThrow(message);
  });
});
