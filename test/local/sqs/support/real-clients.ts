import { execFile, execFileSync } from "node:child_process";
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

const BOTO3_CALL = [
  "import boto3, json, sys",
  "endpoint, operation, params = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])",
  "result = getattr(boto3.client('sqs', endpoint_url=endpoint, region_name='us-east-1'), operation)(**params)",
  "result.pop('ResponseMetadata', None)",
  "print(json.dumps(result))",
].join("\n");

/** boto3 through `python3`, when it has it: one `client.<operation>(**params)` per call. */
export function boto3Client(): RealClient | undefined {
  const version = versionOf("python3", ["-c", "import boto3; print(boto3.__version__)"]);
  if (!version) return undefined;
  return {
    name: `boto3 ${version}`,
    call: (endpoint, operation, params) =>
      run("python3", ["-c", BOTO3_CALL, endpoint, snake(operation), JSON.stringify(params)], `boto3 ${snake(operation)}`),
  };
}
