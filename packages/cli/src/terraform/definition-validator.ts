import { createServer } from "node:http";
import { callerIdentityXml, isGetCallerIdentity } from "./offline-sts";
import { listenOnLoopback, readBody, replyJson } from "./json-http";

/**
 * hashicorp/aws 5.x calls Step Functions `ValidateStateMachineDefinition` while *planning* whenever a state
 * machine's definition is known and changes, so an offline plan against a seeded state would otherwise fail on
 * DNS. This answers that one call on 127.0.0.1, with the verdict of asl-validator (the schema and transition
 * checks AWS also makes) when it is installed, and OK otherwise. It also answers STS `GetCallerIdentity`
 * (the trust policies' account id, see offline-sts.ts). Every other call gets an error naming it.
 */
export interface DefinitionValidator {
  /** `http://127.0.0.1:<port>`, for the provider's `endpoints { sfn = ..., sts = ... }`. */
  readonly endpoint: string;
  /** Definitions checked so far (the provider calls once per changed state machine). */
  readonly calls: number;
  close(): Promise<void>;
}

export interface Diagnostic {
  severity: "ERROR";
  code: string;
  message: string;
}
export type Check = (definition: unknown) => Diagnostic[];

/** asl-validator's verdict on a parsed definition (no diagnostics = OK); OK for everything when it is not installed. */
export async function loadChecker(): Promise<Check> {
  try {
    const { default: validate } = await import("asl-validator");
    return (definition) => {
      if (!definition || typeof definition !== "object") return [{ severity: "ERROR", code: "INVALID_JSON_DESCRIPTION", message: "the definition is not a JSON object" }];
      const result = validate(definition);
      return result.isValid
        ? []
        : result.errors.map((e) => {
            const entry = e as { "Error code"?: string; message?: string; Message?: string; path?: string };
            return { severity: "ERROR", code: entry["Error code"] ?? "SCHEMA_VALIDATION_FAILED", message: `${entry.path ? `${entry.path}: ` : ""}${entry.message ?? entry.Message ?? "invalid"}` };
          });
    };
  } catch {
    return () => [];
  }
}



/** The answer to ValidateStateMachineDefinition for a request body, as AWS shapes it. */
export function validateAnswer(body: string, check: Check): { result: "OK" | "FAIL"; diagnostics: unknown[]; truncated: false } {
  let definition: unknown;
  try {
    definition = JSON.parse((JSON.parse(body) as { definition?: string }).definition ?? "");
  } catch {
    return { result: "FAIL", diagnostics: [{ severity: "ERROR", code: "INVALID_JSON_DESCRIPTION", message: "the definition is not valid JSON" }], truncated: false };
  }
  const diagnostics = check(definition);
  return { result: diagnostics.length ? "FAIL" : "OK", diagnostics, truncated: false };
}

export async function startDefinitionValidator(): Promise<DefinitionValidator> {
  const check = await loadChecker();
  let calls = 0;
  const server = createServer((req, res) => {
    readBody(req)
      .then((bytes) => {
        const body = bytes.toString("utf8");
        if (isGetCallerIdentity(body)) {
          const xml = callerIdentityXml();
          res.writeHead(200, { "content-type": "text/xml", "content-length": Buffer.byteLength(xml) });
          res.end(xml);
          return;
        }
        const target = String(req.headers["x-amz-target"] ?? "");
        if (target !== "AWSStepFunctions.ValidateStateMachineDefinition") {
          replyJson(res, 400, { __type: "UnknownOperationException", message: `${target || "this call"} is not available in an offline plan` });
          return;
        }
        calls++;
        replyJson(res, 200, validateAnswer(body, check));
      })
      .catch(() => replyJson(res, 500, { __type: "InternalFailure", message: "could not read the request" }));
  });
  const endpoint = await listenOnLoopback(server);
  return {
    endpoint,
    get calls() {
      return calls;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
