import { creationTimes, errorsByAddress, formatResults, Outcome, resourceResults } from "../../src/terraform/rehearse/table";

// Shaped as terraform 1.11 prints them with -no-color (copied from a rehearsal's apply).
const APPLY = `aws_iam_role.r: Creation complete after 1s [id=payments-charge-role]
aws_sqs_queue.dlq: Still creating... [20s elapsed]
aws_sqs_queue.dlq: Creation complete after 1m6s [id=http://127.0.0.1:1/123456789012/payments-dlq]

Error: validating Step Functions State Machine definition: operation error SFN: ValidateStateMachineDefinition, StatusCode: 500

  with aws_sfn_state_machine.m,
  on cdk.tf.json line 517, in resource.aws_sfn_state_machine.m:
 517:       }
`;

describe("Function: creationTimes / errorsByAddress", () => {
  it("reads how long each resource took, minutes included", () => {
    expect([...creationTimes(APPLY)]).toEqual([
      ["aws_iam_role.r", 1],
      ["aws_sqs_queue.dlq", 66],
    ]);
  });

  it("attributes each error to the resource terraform names after it", () => {
    expect(errorsByAddress(APPLY).get("aws_sfn_state_machine.m")).toMatch(/^validating Step Functions State Machine definition: .*StatusCode: 500$/);
  });
});

describe("Function: resourceResults", () => {
  it("marks what reached the state as created, what terraform names in an error as failed, the rest as blocked, and lists skips with their reason", () => {
    // Arrange
    const input = {
      planned: ["aws_sqs_queue.dlq", "aws_sfn_state_machine.m", "aws_iam_role.r", "aws_pipes_pipe.p"],
      inState: new Set(["aws_sqs_queue.dlq", "aws_iam_role.r"]),
      skipped: new Map([["aws_sqs_queue_redrive_allow_policy.a", "not rehearsed (moto drops it)"]]),
      applyOutput: APPLY,
    };
    // Act
    const rows = resourceResults(input);
    // Assert
    expect(rows.map((r) => [r.address, r.outcome])).toEqual([
      ["aws_iam_role.r", Outcome.Created],
      ["aws_pipes_pipe.p", Outcome.Blocked],
      ["aws_sfn_state_machine.m", Outcome.Failed],
      ["aws_sqs_queue.dlq", Outcome.Created],
      ["aws_sqs_queue_redrive_allow_policy.a", Outcome.Skipped],
    ]);
    expect(rows[1]!.note).toBe("not created: the apply stopped at an earlier failure");
    expect(rows[2]!.note).toContain("ValidateStateMachineDefinition");
    expect(rows[3]!.seconds).toBe(66);
    const text = formatResults(rows);
    expect(text).toContain("2 created, 1 skipped, 1 failed, 1 blocked");
    expect(text).toMatch(/aws_sqs_queue\.dlq\s+created\s+66 s/);
  });
});
