import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startLocalCloud } from "@effectively-once/local-cloud";
import { runDemo } from "@effectively-once/local-cloud";
import { exampleNames, loadApp, loadProfile } from "@effectively-once/local-cloud/stack";
import { synthStack } from "@effectively-once/local-cloud/stack";

// "Adding a domain = one folder under examples/": the tools run every example found there, unchanged, and the
// guarantee holds for each (the sample stream's duplicates, conflict, invalid and refused messages).
describe.each(exampleNames())("npm start's stream on the %s example (found in examples/, no tool edits)", (name) => {
  it("applies each key once, acknowledges duplicates and quarantines the rest with the expected reasons", async () => {
    const outdir = mkdtempSync(join(tmpdir(), `example-${name}-`));
    const app = loadApp(name);
    const { stackFile } = synthStack({ ...app.defaults, stackName: `${name}-check`, region: "us-east-1" }, { app, outdir });
    const cloud = await startLocalCloud({ stackFile, retryVisibilityTimeoutSeconds: 1 });
    const lines: string[] = [];
    const log = jest.spyOn(console, "log").mockImplementation((line: unknown) => void lines.push(String(line)));
    const write = jest.spyOn(process.stdout, "write").mockImplementation(() => true);
    try {
      const ok = await runDemo(cloud, { profile: loadProfile(name), orders: 6, seed: 3, retryAfterSeconds: 1, startedAt: Date.now() });
      const summary = lines.join("\n");
      expect(summary).toMatch(/applied \(one effect per key\)\s+6/);
      expect(summary).toContain("✔ 0 lost");
      expect(summary).toContain("✔ 0 double-applied");
      expect(ok).toBe(true);
      // The stream quarantines messages: the DLQ alarms fire and say why; a refused message is no function failure.
      expect(summary).toMatch(/Alarms that fired \(\d+\)/);
      expect(summary).toMatch(/-dlq-depth\s+\d\d:\d\d\s+1 out of the last 1 datapoints/);
      expect(summary).toMatch(/-dlq-arrivals\s+\d\d:\d\d/);
      expect(summary).not.toMatch(/-function-errors\s+\d\d:\d\d/);
      expect(summary).toMatch(/In ALARM now: .*-dlq-depth/);
    } finally {
      log.mockRestore();
      write.mockRestore();
      await cloud.stop();
      rmSync(outdir, { recursive: true, force: true });
    }
  }, 60_000);
});

it("finds both shipped examples", () => {
  expect(exampleNames()).toEqual(expect.arrayContaining(["invoices", "payments"]));
});
