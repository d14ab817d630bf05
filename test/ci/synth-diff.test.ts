import { diffSynth, formatDifferences } from "../../src/terraform/synth-diff";

const stack = (version: string, visibility = 360) => ({
  "//": { metadata: { backend: "local", stackName: "payments-pipeline", version } },
  resource: { aws_sqs_queue: { queue: { name: "payments-queue", visibility_timeout_seconds: visibility, tags: [] } } },
});

describe("Function: diffSynth", () => {
  it('ignores "//".metadata.version and key order', () => {
    // Arrange
    const cdktf = stack("0.21.0");
    const cdktn = { resource: stack("0.24.0").resource, "//": stack("0.24.0")["//"] };

    // Act / Assert
    expect(diffSynth(cdktf, cdktn)).toEqual([]);
  });

  it("reports every other difference with its path", () => {
    // Arrange
    const right = stack("0.24.0", 300);
    (right["//"].metadata as Record<string, unknown>).stackName = "other";

    // Act
    const differences = diffSynth(stack("0.21.0"), right);

    // Assert
    expect(differences).toEqual([
      { path: "//.metadata.stackName", left: "payments-pipeline", right: "other" },
      { path: "resource.aws_sqs_queue.queue.visibility_timeout_seconds", left: 360, right: 300 },
    ]);
    expect(formatDifferences(differences)).toContain("visibility_timeout_seconds: 360 ≠ 300");
  });

  it("reports a key present on one side only, and array items by index", () => {
    const left = { a: [1, 2], b: true };
    const right = { a: [1, 3, 4] };
    expect(diffSynth(left, right).map((d) => d.path)).toEqual(["a[1]", "a[2]", "b"]);
  });
});
