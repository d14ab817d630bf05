import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * SQS's rules are written once (packages/local-cloud/src/sqs/rules/), for the local SQS's fidelity layer and the
 * simulation's SQS alike: neither spells one of its own again. Each marker below is a rule's telltale (its character
 * class, its limit, its answer's wording); it may appear in the rules only.
 */
const ROOT = join(__dirname, "../..");
const RULES = "packages/local-cloud/src/sqs/rules";
const SCANNED = ["packages/local-cloud/src/sqs", "tools/sim/src"];
const MARKERS: readonly [string, RegExp][] = [
  ["SQS's character set", /uD7FF/],
  ["FIFO ids' characters", /x21-\\x7E/],
  ["the attribute count limit", /Number of message attributes/],
  ["an attribute's Number rule", /38 significant digits|\.length > 38/],
  ["the MD5 of message attributes", /writeUInt32BE/],
  ["content-based deduplication", /createHash\("sha256"\)/],
  ["the deduplication scope", /[sS]cope === "messageGroup"/],
  ["RedriveAllowPolicy's permissions", /redrivePermission === "denyAll"|allowAll", "denyAll", "byQueue/],
  ["the move task's source rule", /must be configured as a Dead Letter Queue/],
  ["a receipt handle never issued", /is not a valid receipt handle/],
  ["the latest handle deletes", /handle === latestHandle|latestHandle === handle|receiptHandle !== handle/],
  ["a gone message's visibility change", /not available for visibility timeout change/],
  ["the visibility timeout's limit", /(=|>|<=?) ?43[_,]?200\b/],
  ["a queue policy's explicit Deny", /explicit deny in a resource-based policy/],
  ["a Deny the SQS cannot evaluate", /"Condition", "NotAction", "NotResource", "NotPrincipal"/],
  ["a move task's default destination", /destinationArn \?\? [\w.]*deadLetterQueueSourceArn|DestinationArn \?\? [\w.]*DeadLetterQueueSourceArn/i],
  ["the redrive policy's receive limit", /receiveCount >= [\w.]*maxReceiveCount|ReceiveCount > maxReceiveCount|\+ 1 > maxReceiveCount/],
];

function files(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory()) return path === RULES ? [] : files(path);
    return /\.(ts|mjs|cjs|js)$/.test(e.name) ? [path] : [];
  });
}

describe("SQS's rules, one copy", () => {
  it("the rules hold every marker (so the check below looks for something real)", () => {
    const rules = readdirSync(join(ROOT, RULES)).map((f) => readFileSync(join(ROOT, RULES, f), "utf8")).join("\n");
    expect(MARKERS.filter(([, marker]) => !marker.test(rules)).map(([what]) => what)).toEqual([]);
  });

  it("neither the local SQS's fidelity layer nor the simulation's SQS spells a rule of its own", () => {
    const copies = SCANNED.flatMap(files).flatMap((file) => {
      const text = readFileSync(join(ROOT, file), "utf8");
      return MARKERS.filter(([, marker]) => marker.test(text)).map(([what]) => `${file}: ${what}`);
    });
    expect(copies).toEqual([]);
  });
});
