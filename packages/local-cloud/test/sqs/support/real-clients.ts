import { execFile, execFileSync, spawn } from "node:child_process";
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { accessSync, constants, realpathSync } from "node:fs";
import path from "node:path";

/** An SQS client this project did not write, found on this machine. */
export interface RealClient {
  name: string;
  /** Calls one SQS operation (`SendMessage`, ...) with the API's own parameter names; returns the parsed result. */
  call(endpoint: string, operation: string, params: Record<string, unknown>): Promise<Record<string, unknown>>;
}

const ENV = {
  ...process.env,
  AWS_ACCESS_KEY_ID: "local",
  AWS_SECRET_ACCESS_KEY: "local",
  AWS_DEFAULT_REGION: "us-east-1",
  AWS_PAGER: "",
  AWS_CONFIG_FILE: "/dev/null",
  AWS_SHARED_CREDENTIALS_FILE: "/dev/null",
  AWS_EC2_METADATA_DISABLED: "true",
};

function versionOf(file: string, args: string[]): string | undefined {
  try {
    return execFileSync(file, args, { env: ENV, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 20_000 })
      .trim()
      .split("\n")[0];
  } catch {
    return undefined;
  }
}

/** Every `aws` on PATH (like `which -a aws`), with the version it reports. */
export function findAwsClis(): Array<{ file: string; version: string }> {
  const found: Array<{ file: string; version: string }> = [];
  const seen = new Set<string>();
  for (const dir of (process.env.PATH ?? "").split(path.delimiter).filter(Boolean)) {
    const file = path.join(dir, "aws");
    try {
      accessSync(file, constants.X_OK);
      // /bin is often /usr/bin: ask each program once (a CLI takes ~0.5 s to start).
      const real = realpathSync(file);
      if (seen.has(real)) continue;
      seen.add(real);
    } catch {
      continue;
    }
    const version = versionOf(file, ["--version"]);
    if (version && !found.some((other) => other.version === version)) found.push({ file, version });
  }
  return found;
}

const kebab = (name: string) => name.replace(/[A-Z]/g, (c, i: number) => (i === 0 ? "" : "-") + c.toLowerCase());
const snake = (name: string) => kebab(name).replace(/-/g, "_");

function run(file: string, args: string[], what: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { env: ENV, encoding: "utf8", timeout: 30_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${what} failed: ${stderr || error.message}`));
      else resolve(stdout.trim() === "" ? {} : (JSON.parse(stdout) as Record<string, unknown>));
    });
  });
}

/** An AWS CLI as a {@link RealClient}: `aws sqs <operation> --cli-input-json <params>`, endpoint explicit. */
export function cliClient(file: string, version: string): RealClient {
  return {
    name: `AWS CLI ${version.split(" ")[0].replace("aws-cli/", "")}`,
    call: (endpoint, operation, params) =>
      run(
        file,
        ["--endpoint-url", endpoint, "--output", "json", "sqs", kebab(operation), "--cli-input-json", JSON.stringify(params)],
        `${file} sqs ${kebab(operation)}`,
      ),
  };
}

// One Python process serves every call (importing boto3 costs ~0.5 s): a JSON line in, a JSON line out.
const BOTO3_SERVER = [
  "import boto3, json, sys",
  "clients = {}",
  "for line in sys.stdin:",
  "    request = json.loads(line)",
  "    try:",
  "        client = clients.get(request['endpoint']) or clients.setdefault(request['endpoint'], boto3.client('sqs', endpoint_url=request['endpoint'], region_name='us-east-1'))",
  "        result = getattr(client, request['operation'])(**request['params'])",
  "        result.pop('ResponseMetadata', None)",
  "        reply = {'result': result}",
  "    except Exception as error:",
  "        reply = {'error': repr(error)}",
  "    print(json.dumps(reply), flush=True)",
].join("\n");

/** boto3 through `python3`, when it has it: one long-lived interpreter; `close()` ends it. */
export function boto3Client(): (RealClient & { close(): void }) | undefined {
  const version = versionOf("python3", ["-c", "import boto3; print(boto3.__version__)"]);
  if (!version) return undefined;
  let child: ChildProcessWithoutNullStreams | undefined;
  let buffered = "";
  const waiting: Array<(line: string) => void> = [];
  const start = () => {
    child = spawn("python3", ["-c", BOTO3_SERVER], { env: ENV });
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      buffered += chunk;
      for (let i = buffered.indexOf("\n"); i >= 0; i = buffered.indexOf("\n")) {
        const line = buffered.slice(0, i);
        buffered = buffered.slice(i + 1);
        waiting.shift()?.(line);
      }
    });
    return child;
  };
  return {
    name: `boto3 ${version}`,
    call: (endpoint, operation, params) =>
      new Promise((resolve, reject) => {
        const process = child ?? start();
        waiting.push((line) => {
          const reply = JSON.parse(line) as { result?: Record<string, unknown>; error?: string };
          if (reply.error !== undefined) reject(new Error(`boto3 ${snake(operation)} failed: ${reply.error}`));
          else resolve(reply.result ?? {});
        });
        process.stdin.write(`${JSON.stringify({ endpoint, operation: snake(operation), params })}\n`);
      }),
    close: () => {
      child?.stdin.end();
      child = undefined;
    },
  };
}
