import { diffSynth, formatDifferences, relativeTo } from "../../scripts/ci/synth-diff";

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

describe("Function: relativeTo", () => {
  it("makes two builds in two folders comparable: the local backend's absolute state path", () => {
    // Arrange
    const at = (root: string) => ({ terraform: { backend: { local: { path: `${root}/terraform.payments-pipeline.tfstate` } } } });

    // Act / Assert
    expect(diffSynth(at("/work/repo"), at("/tmp/copy/repo"))).toHaveLength(1);
    expect(diffSynth(relativeTo(at("/work/repo"), "/work/repo"), relativeTo(at("/tmp/copy/repo"), "/tmp/copy/repo"))).toEqual([]);
  });
});
