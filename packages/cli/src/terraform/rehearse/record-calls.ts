import { writeFileSync } from "node:fs";
import { cbor } from "@smithy/core/cbor";
import { botocoreDir, restRoutes } from "./api-routes";
import { CallLog, type RecordedCall } from "./call-log";

/** moto's account (its default `MOTO_ACCOUNT_ID`): every ARN of the recording carries it. */
const MOTO_ACCOUNT = "123456789012";

/** The REST services of the stack, by signing name → botocore model name. */
const REST_SERVICES: readonly (readonly [string, string])[] = [
  ["lambda", "lambda"],
  ["pipes", "pipes"],
];

function decodeCbor(body: Buffer): Map<string, unknown> {
  if (body.length === 0) return new Map();
  const value = cbor.deserialize(new Uint8Array(body)) as unknown;
  return value && typeof value === "object" && !Array.isArray(value) ? new Map(Object.entries(value)) : new Map();
}

/** A call log that names REST requests by botocore's routes (moto's own dependency, so present wherever moto is). */
export function createCallLog(): CallLog {
  const dir = botocoreDir();
  return new CallLog(() => MOTO_ACCOUNT, new Map(REST_SERVICES.map(([signing, model]) => [signing, restRoutes(dir, model)])), decodeCbor);
}

/** The recording as committed: what made it, how to make it again, and the calls. */
export interface CallRecording {
  readonly kind: "deployer-calls";
  readonly recordedWith: string;
  readonly account: string;
  readonly region: string;
  readonly stack: string;
  readonly regenerate: string;
  readonly calls: readonly RecordedCall[];
}

const REGENERATE = "npx effectively-once rehearse --record-calls packages/cli/test/deployer/fixtures/rehearsal-calls.json";

export function writeRecording(file: string, recording: Omit<CallRecording, "kind" | "regenerate" | "account">): void {
  const full: CallRecording = { kind: "deployer-calls", ...recording, account: MOTO_ACCOUNT, regenerate: REGENERATE };
  writeFileSync(file, `${JSON.stringify(full, null, 2)}\n`);
}
