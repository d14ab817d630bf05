/**
 * `npm run verify` end to end, offline:
 * - `--target local` boots the local cloud on the probe stack, runs every probe, and against the committed "AWS"
 *   answers (deliberate differences) names exactly those; its own answers equal the committed local ones (a change
 *   of the local cloud's behaviour must be re-recorded on purpose: see support/fixtures.ts);
 * - `--target aws --yes` against the local cloud addressed exactly as AWS: the real terraform target with a stand-in
 *   `terraform` (init, apply and destroy do nothing; `output -json` prints the cloud's outputs as terraform does),
 *   the endpoints in the SDK's own variables and the default credential chain. Only the clock is the local cloud's.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sharedClock } from "@effectively-once/local-cloud/emulators";
import { startLocalCloud, type LocalCloud } from "@effectively-once/local-cloud";
import { runVerifyCli, type VerifyIo } from "../../src/verify/cli";
import { compareAnswers } from "../../src/verify/compare";
import { synthProbeStack, type ProbeStack } from "../../src/verify/probe-stack";
import { localClock } from "../../src/verify/targets";
import { writeTerraformOutputs } from "@effectively-once/testing";
import { AWS_FIXTURE, DELIBERATE, LOCAL_FIXTURE, readAnswers } from "./support/fixtures";

let dir: string;
let stack: ProbeStack;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "verify-e2e-"));
  stack = synthProbeStack({ PIPELINE_APP: "payments" }, "payments");
}, 60_000);
afterAll(() => {
  stack?.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

async function verify(argv: string[], io: Partial<VerifyIo> = {}) {
  let out = "";
  const err: string[] = [];
  const code = await runVerifyCli(argv, { env: {}, stdout: (t) => (out += t), stderr: (l) => err.push(l), probeStack: () => ({ ...stack, cleanup: () => undefined }), ...io });
  return { code, out, err: err.join("\n") };
}

const named = (out: string) => [...out.matchAll(/^ {2}≠ (.+?): AWS answers /gm)].map((m) => m[1]);

describe("verify --target local (the local cloud, no account)", () => {
  it("runs every probe, answers as recorded, and names each deliberate difference of the AWS answer set", async () => {
    // Act
    const record = join(dir, "local.json");
    const { code, out, err } = await verify(["--target", "local", "--aws-answers", AWS_FIXTURE, "--record", record]);

    // Assert
    expect(err).not.toMatch(/verify failed|did not finish/);
    expect(code).toBe(1);
    expect(compareAnswers(readAnswers(record), readAnswers(LOCAL_FIXTURE)).differences).toEqual([]);
    expect(named(out)).toEqual(DELIBERATE);
    expect(out).toContain("✘ record-serialization: AWS: the record took 7200 bytes");
    // The local run moved the process's clock past the visibility timeout, and back: an AWS run that follows signs
    // its requests with the real time (AWS refuses a request signed more than 5 minutes off).
    expect(sharedClock().offsetMs()).toBe(0);
  }, 180_000);
});

describe("verify --target aws (the local cloud addressed as AWS: endpoints and outputs only)", () => {
  let cloud: LocalCloud;
  const saved = { ...process.env };
  beforeAll(async () => {
    cloud = await startLocalCloud({ stackFile: stack.stackFile });
    // The SDK's default chain, as on a team's machine.
    Object.assign(process.env, { AWS_ACCESS_KEY_ID: "AKIAVERIFYTEST000000", AWS_SECRET_ACCESS_KEY: "not-a-secret" });
    delete process.env.AWS_PROFILE;
  }, 60_000);
  afterAll(async () => {
    process.env = saved;
    await cloud?.stop();
  });

  it("deploys with terraform, probes through the endpoints, re-plans, destroys, and names the one difference", async () => {
    // Arrange: a stand-in terraform that logs its arguments; `plan` reports a change, as a drifting stack would.
    const outputs = join(dir, "outputs.json");
    writeTerraformOutputs(outputs, cloud.outputs);
    const log = join(dir, "terraform.log");
    const bin = join(dir, "terraform");
    writeFileSync(bin, `#!/bin/sh\necho "$1" >> "${log}"\ncase "$1" in\n  output) cat "${outputs}" ;;\n  plan) echo "  # aws_sqs_queue.drifted will be updated in-place"; exit 2 ;;\n  show) echo '{"format_version":"1.0"}' ;;\n  destroy) echo "Destroy complete! Resources: 0 destroyed." ;;\nesac\nexit 0\n`);
    chmodSync(bin, 0o755);
    const env = {
      ...process.env,
      TERRAFORM_BIN: bin,
      AWS_ENDPOINT_URL_SQS: cloud.endpoints.sqs,
      AWS_ENDPOINT_URL_DYNAMODB: cloud.endpoints.dynamodb,
      AWS_ENDPOINT_URL_SFN: cloud.endpoints.stepfunctions,
      AWS_ENDPOINT_URL_CLOUDWATCH_LOGS: cloud.endpoints.logs,
      AWS_ENDPOINT_URL_CLOUDWATCH: cloud.endpoints.cloudwatch,
    };
    // The local cloud's clock; a wait of a minute or more lets its alarms evaluate, as CloudWatch does meanwhile.
    const clock = localClock(cloud);
    const awsClock = { ...clock, sleep: (ms: number) => (ms >= 60_000 ? cloud.drain().then(() => cloud.alarms.advance(ms / 1000)).then(() => undefined) : clock.sleep(ms)) };

    // Act
    const { code, out, err } = await verify(["--target", "aws", "--yes"], { env, awsClock });

    // Assert: the same answers on both sides but the re-plan, which the stand-in made drift.
    expect(err).not.toMatch(/verify failed|did not finish/);
    expect(named(out)).toEqual(["replan-drift › terraform plan after apply"]);
    expect(out).toContain('AWS answers "changes: aws_sqs_queue.drifted"');
    expect(code).toBe(1);
    expect(readFileSync(log, "utf8").trim().split("\n")).toEqual(["init", "apply", "output", "plan", "show", "destroy"]);
  }, 240_000);
});
