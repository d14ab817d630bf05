import { GapFix, MOTO_GAPS, type MotoGap } from "../../src/terraform/rehearse/gaps";
import { endpointServiceOf, REHEARSAL_ACCESS_KEY, rehearsalOverride } from "../../src/terraform/rehearse/override";
import { parseStack, resourceList } from "@effectively-once/local-cloud/terraform-json";

const gap = (id: string): MotoGap => MOTO_GAPS.find((g) => g.id === id)!;
const RESOURCES = resourceList(parseStack({
  resource: {
    aws_sqs_queue: { queue: {}, dlq: {} },
    aws_sqs_queue_redrive_allow_policy: { allow: {} },
    aws_sfn_state_machine: { machine: {} },
    aws_lambda_function: { fn: {} },
    aws_cloudwatch_log_group: { logs: {} },
    aws_cloudwatch_metric_alarm: { alarm: {} },
  },
}, "cdk.tf.json"));
type Provider = { access_key: string; max_retries: number; skip_credentials_validation: boolean; skip_requesting_account_id: boolean; skip_metadata_api_check: boolean; endpoints: Record<string, string>[] };
const provider = (o: Record<string, unknown>) => (o.provider as { aws: Provider[] }).aws[0]!;

describe("Function: rehearsalOverride", () => {
  it("points every service the stack uses, and STS, at the local endpoint, with fake keys and the skip flags", () => {
    // Arrange / Act
    const o = rehearsalOverride({ endpoint: "http://127.0.0.1:4000", statePath: "/tmp/x/terraform.tfstate", resources: RESOURCES, gaps: [] });
    // Assert
    const aws = provider(o);
    expect(aws.endpoints).toEqual([{ cloudwatch: "http://127.0.0.1:4000", lambda: "http://127.0.0.1:4000", logs: "http://127.0.0.1:4000", sfn: "http://127.0.0.1:4000", sqs: "http://127.0.0.1:4000", sts: "http://127.0.0.1:4000" }]);
    expect(aws).toMatchObject({ access_key: REHEARSAL_ACCESS_KEY, skip_credentials_validation: true, skip_requesting_account_id: true, skip_metadata_api_check: true, max_retries: 1 });
    expect(o.terraform).toEqual({ backend: { local: { path: "/tmp/x/terraform.tfstate" } } });
    expect(o.resource).toBeUndefined();
  });

  it("leaves a skipped resource type out with count = 0 and ignores only the named attributes", () => {
    const o = rehearsalOverride({ endpoint: "http://127.0.0.1:1", statePath: "/s", resources: RESOURCES, gaps: [gap("sqs-redrive-allow"), gap("sfn-type"), gap("lambda-logging"), gap("sfn-validate")] });
    expect(o.resource).toEqual({
      aws_sqs_queue_redrive_allow_policy: { allow: { count: 0 } },
      aws_sfn_state_machine: { machine: { lifecycle: { ignore_changes: ["type"] } } },
      aws_lambda_function: { fn: { lifecycle: { ignore_changes: ["logging_config"] } } },
    });
  });

  it("writes no resource block for gaps the front or the rehearsal itself handles", () => {
    const handled = MOTO_GAPS.filter((g) => g.fix === GapFix.Front || g.fix === GapFix.Avoided);
    expect(handled.length).toBeGreaterThan(0);
    expect(rehearsalOverride({ endpoint: "http://127.0.0.1:1", statePath: "/s", resources: RESOURCES, gaps: handled }).resource).toBeUndefined();
  });
});

describe("Function: endpointServiceOf", () => {
  it("maps log groups to logs, EventBridge rules to events and alarms to cloudwatch (longest prefix wins)", () => {
    expect(endpointServiceOf("aws_cloudwatch_log_group")).toBe("logs");
    // The queue edit alert's rule and target: on the cloudwatch endpoint they would go to AWS's EventBridge.
    expect(endpointServiceOf("aws_cloudwatch_event_rule")).toBe("events");
    expect(endpointServiceOf("aws_cloudwatch_event_target")).toBe("events");
    expect(endpointServiceOf("aws_cloudwatch_dashboard")).toBe("cloudwatch");
    expect(endpointServiceOf("aws_pipes_pipe")).toBe("pipes");
  });

  it("refuses a resource type without a local endpoint, naming the type and where to add it", () => {
    expect(() => endpointServiceOf("aws_s3_bucket")).toThrow(/aws_s3_bucket has no local endpoint.*ENDPOINT_OF in packages\/cli\/src\/terraform\/rehearse\/override\.ts/);
  });
});
