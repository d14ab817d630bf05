/**
 * Lambda's application log-level filter, locally (src/lambda/log-sink.ts), against the Lambda developer guide's
 * "Log-level filtering": with a level set, only lines of that level or a less detailed one are sent; a JSON line's
 * `level` is read case-insensitively (the guide's example is "debug"), and a missing or invalid one counts as INFO, as
 * does any line without a valid RFC 3339 `timestamp`.
 * Why it matters: the function-errors alarm's metric filters read the lines Lambda keeps (docs/operations.md).
 */
import { createLambdaRunner, type LambdaRunner } from "../../src/lambda";
import { InvalidLambdaConfigError } from "../../src/lambda/errors";
import { waitFor } from "@effectively-once/testing";
import { buildHandlerBundle } from "./fixture";

const ARN = (name: string) => `arn:aws:lambda:eu-west-1:123456789012:function:${name}`;
/** Writes each of `event.lines` to stdout, then a plain `done`. */
const HANDLER = `
export const handler = async (event) => {
  for (const line of event.lines) console.log(line);
  console.log("done");
  return "written";
};
`;
const TIMESTAMP = "2026-12-05T08:00:00.000Z";
const LINES = [
  { level: "DEBUG", message: "debug", timestamp: TIMESTAMP },
  { level: "INFO", message: "info", timestamp: TIMESTAMP },
  { level: "WARN", message: "warn", timestamp: TIMESTAMP },
  { level: "error", message: "lower-case error", timestamp: TIMESTAMP },
  { level: "ERROR", message: "error", timestamp: TIMESTAMP },
  { level: "FATAL", message: "fatal", timestamp: TIMESTAMP },
  { level: "CRITICAL", message: "not a Lambda level: INFO", timestamp: TIMESTAMP },
  { level: "ERROR", message: "no timestamp: INFO" },
  { _aws: { CloudWatchMetrics: [] }, Applied: 1 },
].map((line) => JSON.stringify(line));

describe("Function: createLambdaRunner with an application log level", () => {
  let bundle: { dir: string; cleanup(): Promise<void> };
  let runner: LambdaRunner;
  const seen: Array<{ functionName: string; line: string }> = [];
  beforeAll(async () => {
    bundle = await buildHandlerBundle(HANDLER);
    const fn = (name: string, applicationLogLevel?: string) => ({ name, arn: ARN(name), bundle: { dir: bundle.dir }, ...(applicationLogLevel ? { applicationLogLevel } : {}) });
    runner = await createLambdaRunner({ functions: [fn("at-error", "ERROR"), fn("at-warn", "WARN"), fn("unfiltered")], logs: (line, meta) => void seen.push({ functionName: meta.functionName, line }) });
  });
  afterAll(async () => {
    await runner?.stop();
    await bundle?.cleanup();
  });

  /** The lines of `functionName`'s invocation that reach the logs' consumer, up to its `done`. */
  async function linesOf(functionName: string): Promise<string[]> {
    await runner.invoke({ FunctionName: functionName, Payload: JSON.stringify({ lines: LINES }) });
    const mine = await waitFor(() => {
      const lines = seen.filter((s) => s.functionName === functionName).map((s) => s.line);
      return lines.includes("done") ? lines : undefined;
    }, { message: `${functionName}'s done` });
    return mine.filter((line) => line !== "done").map((line) => (JSON.parse(line) as { message?: string }).message ?? "EMF, no level");
  }

  it("passes on only the JSON lines at or above the level (a missing or invalid level, or timestamp, is INFO), as Lambda sends them", async () => {
    expect(await linesOf("at-error")).toEqual(["lower-case error", "error", "fatal"]);
    expect(await linesOf("at-warn")).toEqual(["warn", "lower-case error", "error", "fatal"]);
  });

  it("passes on every line of a function without one", async () => {
    expect(await linesOf("unfiltered")).toEqual(["debug", "info", "warn", "lower-case error", "error", "fatal", "not a Lambda level: INFO", "no timestamp: INFO", "EMF, no level"]);
  });

  it("refuses a level Lambda does not have, naming the field and the levels", async () => {
    const refused = createLambdaRunner({ functions: [{ name: "f", arn: ARN("f"), bundle: { dir: bundle.dir }, applicationLogLevel: "CRITICAL" }] });
    await expect(refused).rejects.toThrow(InvalidLambdaConfigError);
    await expect(refused).rejects.toThrow('functions[0].applicationLogLevel is "CRITICAL": use one of TRACE, DEBUG, INFO, WARN, ERROR, FATAL');
  });
});
