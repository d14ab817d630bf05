/**
 * docs/using-the-package.md shows the consumer check's app "in full": every TypeScript block of the page is a file of
 * test/consumer/shipments, byte for byte, so the page cannot drift from the app the consumer check installs and runs.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

const ROOT = join(__dirname, "../..");
const APP = join(ROOT, "test/consumer/shipments");

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : []));
}

/** The page's fenced TypeScript blocks, each with its text (ending in a newline, as a file does). */
function tsBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
}

describe("Docs: docs/using-the-package.md and the consumer check's app", () => {
  const page = readFileSync(join(ROOT, "docs/using-the-package.md"), "utf8");
  const app = new Map(files(APP).map((file) => [readFileSync(file, "utf8"), relative(APP, file)]));

  it("shows the app's stack, function and profile, and the returns pipeline's journal-writing stack and function", () => {
    const shown = tsBlocks(page).map((block) => app.get(block) ?? "(no file)");
    expect(shown).toEqual(["main.ts", "stack.ts", "functions/dispatch.ts", "profile.ts", "returns/stack.ts", "returns/functions/refund.ts"]);
  });

  it("finds a block that differs from every file by one character", () => {
    const [first] = tsBlocks(page);
    expect(app.has(first)).toBe(true);
    expect(app.has(first.replace("shipments", "shipment"))).toBe(false);
  });
});
