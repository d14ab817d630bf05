// Usage: tsx scripts/ci/compare-synth.ts <default cdk.tf.json> <other cdk.tf.json> [<default root> <other root>]
// The roots (the folders each build ran in) are replaced by "<root>", since a local backend's state path is absolute.
// Exit 0 when the two stacks are equal except "//".metadata.version, 1 (with the differences) otherwise.
import { readFileSync } from "node:fs";
import { diffSynth, formatDifferences, relativeTo } from "./synth-diff";

const [leftFile, rightFile, leftRoot, rightRoot] = process.argv.slice(2);
if (!leftFile || !rightFile) {
  console.error("usage: compare-synth <default cdk.tf.json> <other cdk.tf.json>");
  process.exit(2);
}
const read = (file: string, root: string | undefined): unknown => {
  const doc: unknown = JSON.parse(readFileSync(file, "utf8"));
  return root ? relativeTo(doc, root) : doc;
};
const left = read(leftFile, leftRoot);
const right = read(rightFile, rightRoot);
const differences = diffSynth(left, right);
const version = (doc: unknown): unknown => (doc as { "//"?: { metadata?: { version?: unknown } } })["//"]?.metadata?.version;
if (differences.length > 0) {
  console.error(`synthesized stacks differ (beyond "//".metadata.version):\n${formatDifferences(differences)}`);
  process.exit(1);
}
console.log(`synthesized stacks are equal except "//".metadata.version (${String(version(left))} vs ${String(version(right))})`);
