/**
 * The operator CLI prints message data on a terminal: control characters are escaped, long cells cut, and
 * `--json` parses with jq (and JSON.parse) even for lone surrogates. Hostile keys reach the CLI the way they
 * would on AWS: SQS refuses ESC in a body, but a JSON body may spell it `\u001b`, and the business key derived
 * from that body holds the real character.
 */
import { execFile, spawnSync } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { runCli } from "../src";
import { MAX_CELL, table } from "../src/format";
import { safeCell, safeJson, safeLines } from "../src/safe-text";
import { captureIo, startOpsCloud, type OpsCloud } from "./support/ops-cloud";
import { businessKeyText } from "@effectively-once/contract";

const exec = promisify(execFile);
const root = join(__dirname, "..", "..", "..");
/** Raw characters that must never be printed (see packages/ops/src/safe-text.ts). */
const RAW_UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** ESC ] 0 ; … BEL sets the terminal's title; CR + text overwrites the line; U+202E reverses it; a lone surrogate. */
const HOSTILE_TENANT = "t\u001b]0;pwned\u0007\u001b[2J\rFAKE\u202egnp.exe\u009b31m\ud800";
/** Long enough to be cut on the terminal, short enough to be a key: the Decode step's rule caps a key at MAX_BUSINESS_KEY_BYTES (1,024). */
const LONG_ORDER_ID = `o-${"9".repeat(900)}`;

describe("Function: safeCell", () => {
  it("escapes C0, DEL, C1, bidi controls and lone surrogates, and keeps real text", () => {
    expect(safeCell("a\u001b[31mb\r\n\t\u0007\u007f\u009b\u202e\u2066\u2028\udc00\ud83d")).toBe(
      "a\\u001b[31mb\\r\\n\\t\\u0007\\u007f\\u009b\\u202e\\u2066\\u2028\\udc00\\ud83d",
    );
    expect(safeCell("café 😀 Ω 中文")).toBe("café 😀 Ω 中文");
  });

  it("keeps the CLI's own line breaks in multi-line text, and nothing else", () => {
    expect(safeLines("line 1\nline\u001b2")).toBe("line 1\nline\\u001b2");
  });
});

describe("Function: table", () => {
  it("cuts a long cell to MAX_CELL characters on one line, without splitting a surrogate pair", () => {
    const long = `${"k".repeat(MAX_CELL - 2)}😀${"x".repeat(2000)}`;
    const [, row] = table(["KEY", "ID"], [[long, "m-1"]]).split("\n");
    const cell = row.split("  ")[0];
    expect(cell.length).toBeLessThanOrEqual(MAX_CELL);
    expect(cell.endsWith("…")).toBe(true);
    expect(row).not.toMatch(RAW_UNSAFE);
    expect(row.endsWith("m-1")).toBe(true);
  });
});

describe("Function: safeJson", () => {
  it("escapes controls so the document parses back to the very same string", () => {
    const value = { key: "a\u001b[31m\r\u009b\u202e😀" };
    const text = safeJson(value);
    expect(text).not.toMatch(RAW_UNSAFE);
    expect(JSON.parse(text)).toEqual(value);
  });

  it("writes a lone surrogate as the text \\ud800 (jq 1.6 refuses the escape), leaving pairs and backslashes alone", () => {
    expect(JSON.parse(safeJson({ key: "x\ud800y", pair: "😀", text: "\\ud800" }))).toEqual({ key: "x\\ud800y", pair: "😀", text: "\\ud800" });
  });
});

describe("CLI against the local cloud, with a hostile key in the DLQ", () => {
  let ops: OpsCloud;
  beforeAll(async () => {
    ops = await startOpsCloud({ namePrefix: "safe" });
    // As the queue's redrive moves it (no reason attribute): the CLI derives the key from the body.
    await ops.sendToDlq(JSON.stringify({ tenantId: HOSTILE_TENANT, orderId: LONG_ORDER_ID, amount: 1, currency: "EUR" }));
  }, 30_000);
  afterAll(async () => ops?.stop());

  it("dlq list: no raw control character on the terminal, the escapes instead, long keys cut", async () => {
    const cli = captureIo();
    expect(await runCli(["dlq", "list", "--state", ops.stateFile], cli.io)).toBe(0);
    const out = cli.out.join("\n");
    expect(out).not.toMatch(RAW_UNSAFE);
    expect(out).toContain("t\\u001b]0;pwned\\u0007\\u001b[2J\\rFAKE\\u202egnp.exe\\u009b31m\\ud800");
    for (const line of out.split("\n")) expect(line.length).toBeLessThan(6 * MAX_CELL);
  });

  it("dlq list --json through the real binary: jq parses it, and JSON.parse gives back the exact key", async () => {
    const { stdout } = await exec(process.execPath, [join(root, "packages", "ops", "bin", "pipeline-ops.js"), "dlq", "list", "--state", ops.stateFile, "--json"], { cwd: root });
    expect(stdout).not.toMatch(RAW_UNSAFE);
    const parsed = JSON.parse(stdout) as { messages: { businessKey?: string }[] };
    // The exact key: its canonical text, in which JSON already escapes the control characters and the lone surrogate.
    expect(parsed.messages[0].businessKey).toBe(businessKeyText([HOSTILE_TENANT, LONG_ORDER_ID]));
    const jq = spawnSync("jq", ["-r", ".messages | length"], { input: stdout, encoding: "utf8" });
    if (jq.error && (jq.error as NodeJS.ErrnoException).code === "ENOENT") return; // no jq here: JSON.parse above is the proof
    expect(jq.status).toBe(0);
    expect(jq.stdout.trim()).toBe("1");
  });
});
