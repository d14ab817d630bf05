import { detectAwsCredentials, withoutAwsIdentity, type FileSystem } from "../../src/terraform/credentials";
import { parseEnvFile } from "../../src/terraform/env-file";
import { PlanInputError } from "../../src/terraform/errors";
import { OFFLINE_ACCESS_KEY, offlineOverride } from "../../src/terraform/offline-override";
import { parseBaseline } from "../../src/terraform/review/baseline";

const files = (contents: Record<string, string>): FileSystem => ({ exists: (p) => p in contents, read: (p) => contents[p] });
const none = files({});

describe("Function: detectAwsCredentials", () => {
  it("finds keys, profiles, web identity and container credentials in the environment", () => {
    expect(detectAwsCredentials({ AWS_ACCESS_KEY_ID: "a", AWS_SECRET_ACCESS_KEY: "b", HOME: "/h" }, none)).toContain("AWS_ACCESS_KEY_ID");
    expect(detectAwsCredentials({ AWS_PROFILE: "dev", HOME: "/h" }, none)).toBe("AWS_PROFILE=dev");
    expect(detectAwsCredentials({ AWS_WEB_IDENTITY_TOKEN_FILE: "/t", HOME: "/h" }, none)).toBe("AWS_WEB_IDENTITY_TOKEN_FILE");
    expect(detectAwsCredentials({ AWS_CONTAINER_CREDENTIALS_RELATIVE_URI: "/v2", HOME: "/h" }, none)).toContain("container");
  });

  it("finds a shared credentials file, or a config profile that can make credentials", () => {
    expect(detectAwsCredentials({ HOME: "/h" }, files({ "/h/.aws/credentials": "[default]\naws_access_key_id = A\n" }))).toBe("shared credentials file /h/.aws/credentials");
    expect(detectAwsCredentials({ HOME: "/h", AWS_CONFIG_FILE: "/c" }, files({ "/c": "[profile x]\nsso_session = corp\n" }))).toBe("shared config file /c");
  });

  it("finds none with an access key alone, a config holding only a region, or nothing at all", () => {
    expect(detectAwsCredentials({ AWS_ACCESS_KEY_ID: "a", HOME: "/h" }, none)).toBeUndefined();
    expect(detectAwsCredentials({ HOME: "/h" }, files({ "/h/.aws/config": "[default]\nregion = eu-west-1\n" }))).toBeUndefined();
    expect(detectAwsCredentials({ HOME: "/h" }, none)).toBeUndefined();
  });

  it("strips the user's AWS identity from an offline terraform environment", () => {
    const env = withoutAwsIdentity({ AWS_PROFILE: "prod", AWS_SESSION_TOKEN: "t", PATH: "/bin" }, "/tmp/empty");
    expect(env).toEqual({ PATH: "/bin", AWS_SHARED_CREDENTIALS_FILE: "/tmp/empty", AWS_CONFIG_FILE: "/tmp/empty", AWS_EC2_METADATA_DISABLED: "true" });
  });
});

describe("Function: offlineOverride", () => {
  it("holds placeholder keys, the skip flags, a temporary local backend and the local sfn and sts endpoints", () => {
    const body = offlineOverride({ statePath: "/tmp/x/terraform.tfstate", sfnEndpoint: "http://127.0.0.1:1" });
    expect(body).toEqual({
      terraform: { backend: { local: { path: "/tmp/x/terraform.tfstate" } } },
      provider: {
        aws: [
          expect.objectContaining({
            access_key: OFFLINE_ACCESS_KEY,
            skip_credentials_validation: true,
            skip_requesting_account_id: true,
            skip_metadata_api_check: true,
            endpoints: [{ sfn: "http://127.0.0.1:1", sts: "http://127.0.0.1:1" }],
          }),
        ],
      },
    });
  });
});

describe("Function: parseEnvFile", () => {
  it("reads KEY=value lines with comments, export and quotes", () => {
    expect(parseEnvFile("# base\nexport PIPELINE_NAME_PREFIX='orders'\nPIPELINE_REGION = eu-west-1 # note\n\nX=\"a b\"\n")).toEqual({
      PIPELINE_NAME_PREFIX: "orders",
      PIPELINE_REGION: "eu-west-1",
      X: "a b",
    });
  });

  it("names the file and line of a malformed entry", () => {
    expect(() => parseEnvFile("A=1\nnot a pair\n", "base.env")).toThrow(new PlanInputError('base.env line 2: expected KEY=value, got "not a pair"'));
  });
});

describe("Function: parseBaseline", () => {
  it("accepts a terraform plan JSON and a review JSON, and explains anything else", () => {
    expect(parseBaseline(JSON.stringify({ format_version: "1.2", resource_changes: [] }), "p.json").kind).toBe("plan");
    expect(parseBaseline(JSON.stringify({ kind: "plan-review", version: 1, resources: [] }), "r.json").kind).toBe("review");
    expect(() => parseBaseline("{}", "x.json")).toThrow(/--against x.json: neither a plan .* nor a review/);
    expect(() => parseBaseline("nope", "x.json")).toThrow(/--against x.json: not JSON/);
    expect(() => parseBaseline(JSON.stringify({ kind: "plan-review", version: 9, resources: [] }), "r.json")).toThrow(/version 9 is not supported/);
  });
});
