import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findProviderMirror, mirroredVersions } from "../../src/terraform/offline";
import { fullSource, readRequiredProviders, requiredProviders } from "../../src/terraform/required-providers";

const AWS = "registry.terraform.io/hashicorp/aws";
const stack = (version: string, source = "aws") => ({ terraform: { required_providers: { aws: { source, version } } } });

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "provider-mirror-"));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A mirror as `terraform providers mirror` lays it out, unpacked or packed. */
function mirror(name: string, versions: readonly string[], layout: "unpacked" | "packed" = "unpacked"): string {
  const dir = join(root, name);
  const providerDir = join(dir, ...AWS.split("/"));
  mkdirSync(providerDir, { recursive: true });
  for (const v of versions) {
    if (layout === "unpacked") mkdirSync(join(providerDir, v, "linux_amd64"), { recursive: true });
    else writeFileSync(join(providerDir, `terraform-provider-aws_${v}_linux_amd64.zip`), "");
  }
  return dir;
}

/** An environment that sees no mirror but the one given (HOME points at an empty folder). */
const only = (dir?: string) => ({ HOME: join(root, "empty-home"), ...(dir ? { TF_PROVIDER_MIRROR: dir } : {}) });

describe("Function: requiredProviders", () => {
  it("reads source and version from the synthesized required_providers, in Terraform's full form", () => {
    expect(requiredProviders(stack("5.100.0"))).toEqual([{ name: "aws", source: AWS, version: "5.100.0", exactVersion: "5.100.0" }]);
    expect(requiredProviders(stack("= 6.66.0", "hashicorp/aws"))[0]).toMatchObject({ source: AWS, exactVersion: "6.66.0" });
    expect(requiredProviders(stack("~> 6.0"))[0]?.exactVersion).toBeUndefined();
    expect(fullSource("example.com/acme/thing")).toBe("example.com/acme/thing");
  });

  it("names the field and the fix when the version is missing, and the command when the stack is not synthesized", () => {
    expect(() => requiredProviders({ terraform: { required_providers: { aws: { source: "aws" } } } }, "cdk.tf.json")).toThrow(
      "terraform.required_providers.aws.version in cdk.tf.json is missing: an offline init needs a pinned provider version",
    );
    expect(() => readRequiredProviders(join(root, "nowhere"))).toThrow(/cdk\.tf\.json: synthesize the stack first \(your synth command, e.g. npx cdktf synth\)/);
  });
});

describe("Function: findProviderMirror", () => {
  it("finds the version the stack requires, in either mirror layout", () => {
    const unpacked = mirror("unpacked", ["5.100.0"]);
    const packed = mirror("packed", ["5.100.0", "6.66.0"], "packed");
    expect(mirroredVersions(packed, AWS)).toEqual(["5.100.0", "6.66.0"]);
    expect(findProviderMirror(requiredProviders(stack("5.100.0")), only(unpacked))).toBe(unpacked);
    expect(findProviderMirror(requiredProviders(stack("6.66.0")), only(packed))).toBe(packed);
  });

  it("says which provider is missing, what the mirror holds instead, and the fix (a hashicorp/aws 6.x stack, a 5.x mirror)", () => {
    const old = mirror("old", ["5.100.0"]);
    expect(() => findProviderMirror(requiredProviders(stack("6.66.0")), only(old))).toThrow(
      expect.objectContaining({
        name: "TerraformNotAvailableError",
        message: expect.stringMatching(/TF_PROVIDER_MIRROR=.*old holds no registry\.terraform\.io\/hashicorp\/aws\/6\.66\.0 \(the synthesized stack requires hashicorp\/aws 6\.66\.0; it holds hashicorp\/aws 5\.100\.0\); run 'terraform providers mirror <dir>'/),
      }),
    );
  });

  it("says so when no known location holds the provider at all", () => {
    expect(() => findProviderMirror(requiredProviders(stack("6.66.0")), only())).toThrow(
      /no filesystem mirror holds what the synthesized stack requires \(hashicorp\/aws 6\.66\.0\).*set TF_PROVIDER_MIRROR/,
    );
  });
});
