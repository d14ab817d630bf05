/** The review as a pull-request comment: whole when it fits, else cut at a line with a pointer to the whole review. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { commentBody, GITHUB_COMMENT_LIMIT } from "../../src/terraform/review/comment";
import { buildReview } from "../../src/terraform/review/build";
import { renderMarkdown } from "../../src/terraform/review/markdown";
import { main } from "../../src/terraform/plan-cli";
import { ActionBasis } from "../../src/terraform/review/types";
import { LEDGER, plan, table } from "./support/plan-fixtures";

const lines = (n: number) => Array.from({ length: n }, (_, i) => `| row ${i} | ${"x".repeat(60)} |`).join("\n");

describe("Function: commentBody", () => {
  it("keeps a review that fits, byte for byte", () => {
    const review = lines(10);
    expect(commentBody(review)).toBe(review);
    expect(commentBody(lines(1000), { limit: 100_000 })).toBe(lines(1000));
  });

  it("cuts a longer one at a whole line, within the limit, and points at the artifact", () => {
    const review = lines(2000); // about 140,000 characters
    const body = commentBody(review, { artifact: "https://ci.example/jobs/1/artifacts/review.md" });
    expect(review.length).toBeGreaterThan(GITHUB_COMMENT_LIMIT);
    expect(body.length).toBeLessThanOrEqual(GITHUB_COMMENT_LIMIT);
    const [kept, note] = body.split("\n\n---\n");
    expect(review.startsWith(`${kept}\n`)).toBe(true);
    expect(kept.length).toBeGreaterThan(GITHUB_COMMENT_LIMIT - 400);
    expect(note).toBe(`**Cut here**: the review is ${review.length.toLocaleString("en-US")} characters, more than a comment holds (65,536). The whole review is in the job's artifact: https://ci.example/jobs/1/artifacts/review.md\n`);
    expect(commentBody(review, { limit: 5000 }).length).toBeLessThanOrEqual(5000);
  });
});

describe("CLI: plan --comment and --json", () => {
  it("writes the comment file beside the review, cut to --comment-limit, and refuses a limit too small before any work", async () => {
    const dir = mkdtempSync(join(tmpdir(), "plan-comment-"));
    try {
      const planFile = join(dir, "plan.json");
      const tables = plan(Array.from({ length: 40 }, (_, i) => ({ address: `${LEDGER}${i}`, actions: ["create"], after: table({ name: `ledger-${i}` }) })));
      writeFileSync(planFile, JSON.stringify(tables));
      const markdown = renderMarkdown(buildReview(tables, { basis: ActionBasis.SavedPlan }));
      expect(markdown.length).toBeGreaterThan(2000);
      const err: string[] = [];
      const io = { env: {}, stdout: () => undefined, stderr: (l: string) => err.push(l) };
      expect(await main(["--from-json", planFile, "--comment", join(dir, "whole.md")], io)).toBe(0);
      expect(readFileSync(join(dir, "whole.md"), "utf8")).toBe(markdown);
      expect(await main(["--from-json", planFile, "--comment", join(dir, "cut.md"), "--comment-limit", "1000", "--artifact-url", "https://ci/a"], io)).toBe(0);
      const cut = readFileSync(join(dir, "cut.md"), "utf8");
      expect(cut.length).toBeLessThanOrEqual(1000);
      expect(cut).toContain("The whole review is in the job's artifact: https://ci/a");
      expect(await main(["--from-json", planFile, "--comment", join(dir, "none.md"), "--comment-limit", "12"], io)).toBe(1);
      expect(err.at(-1)).toBe("plan: --comment-limit 12: give the host's limit in characters, a whole number of at least 1000 (GitHub: 65536)");
      expect(() => readFileSync(join(dir, "none.md"))).toThrow();
      // --json: the review itself, machine-readable, on stdout instead of the Markdown.
      let stdout = "";
      expect(await main(["--from-json", planFile, "--json"], { ...io, stdout: (t: string) => (stdout += t) })).toBe(0);
      expect(JSON.parse(stdout)).toEqual(JSON.parse(JSON.stringify(buildReview(tables, { basis: ActionBasis.SavedPlan }))));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
