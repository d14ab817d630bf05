/**
 * AWS's own TestState example, run locally: the order-processing workflow and the expectations of its unit tests from
 * github.com/aws-samples/sample-stepfunctions-testing-with-testStateAPI (MIT-0; the companion of the AWS Compute Blog
 * post "Testing Step Functions workflows: a guide to the enhanced TestState API"). fixtures/order-processing.asl.json
 * is its statemachine/order_processing.asl.json, unchanged. Every call addresses one state of the whole machine with
 * `stateName` at DEBUG, without a role, as the example's runner does.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { run, type Parsed } from "./support";

const MACHINE = readFileSync(join(__dirname, "fixtures/order-processing.asl.json"), "utf8");

function at(stateName: string, input: unknown, extra: { result?: unknown; error?: [string, string]; context?: unknown; retrierRetryCount?: number } = {}): Promise<Parsed> {
  const mock = extra.result !== undefined ? { result: JSON.stringify(extra.result) } : extra.error ? { errorOutput: { error: extra.error[0], cause: extra.error[1] } } : undefined;
  return run({
    definition: MACHINE,
    stateName,
    input: JSON.stringify(input),
    inspectionLevel: "DEBUG",
    mock,
    context: extra.context === undefined ? undefined : JSON.stringify(extra.context),
    stateConfiguration: extra.retrierRetryCount === undefined ? undefined : { retrierRetryCount: extra.retrierRetryCount },
  });
}

describe("AWS's TestState example: the order-processing workflow", () => {
  it("walks the happy path state by state, each output the next state's input (test_complete_order_processing_workflow)", async () => {
    const order = { orderId: "order-12345", amount: 150.75, customerEmail: "customer@example.com", orderItems: [{ itemId: "item-1", quantity: 2, price: 50.25 }, { itemId: "item-2", quantity: 1, price: 50.25 }] };
    const validation = { statusCode: 200, isValid: true, orderId: "order-12345", validatedAt: "2025-01-15T10:30:00Z" };
    const validated = await at("ValidateOrder", order, { result: validation });
    expect(validated).toMatchObject({ status: "SUCCEEDED", nextState: "CheckValidation", output: { ...order, validationResult: validation } });
    expect(await at("CheckValidation", validated.output)).toMatchObject({ status: "SUCCEEDED", nextState: "ProcessOrderItems" });

    const items = await at("ProcessOrderItems", validated.output, { result: [{ itemId: "item-1", processed: true }, { itemId: "item-2", processed: true }] });
    expect(items).toMatchObject({ status: "SUCCEEDED", nextState: "ParallelProcessing" });
    const parallel = await at("ParallelProcessing", items.output, { result: [{ paymentId: "pay-12345", status: "completed", amount: 150.75 }, { inventoryUpdated: true, itemsReserved: 2 }] });
    expect(parallel).toMatchObject({ status: "SUCCEEDED", nextState: "WaitForApproval" });

    // A .waitForTaskToken Task, answered by its mock, with the task token from the given context.
    const approval = await at("WaitForApproval", parallel.output, { result: { approved: true, approvedBy: "manager@example.com" }, context: { Task: { Token: "test-task-token-12345" }, Execution: { Id: "exec-12345" } } });
    expect(approval).toMatchObject({ status: "SUCCEEDED", nextState: "CheckApproval", inspectionData: { afterArguments: { Payload: { orderId: "order-12345", taskToken: "test-task-token-12345" } } } });
    expect(await at("CheckApproval", approval.output)).toMatchObject({ status: "SUCCEEDED", nextState: "SaveOrderDetails" });

    const saved = await at("SaveOrderDetails", approval.output, { result: { Attributes: { orderId: { S: "order-12345" }, status: { S: "COMPLETED" } } }, context: { State: { EnteredTime: "2025-01-15T10:36:00Z" } } });
    expect(saved).toMatchObject({ status: "SUCCEEDED", nextState: "SendNotification", inspectionData: { afterArguments: { Item: { processedAt: { S: "2025-01-15T10:36:00Z" } } } } });
    const notified = await at("SendNotification", saved.output, { result: { messageId: "msg-12345", sent: true, recipient: "customer@example.com" } });
    expect(notified).toMatchObject({ status: "SUCCEEDED", nextState: "OrderProcessed" });
    const done = await at("OrderProcessed", notified.output);
    expect(done).toEqual({ status: "SUCCEEDED", output: "order-12345", inspectionData: expect.any(Object) });
  });

  it("reports RETRIABLE with the growing backoff until the Retry is spent, then the Catch (test_lambda_throttling_retry_mechanism)", async () => {
    const throttled: [string, string] = ["Lambda.TooManyRequestsException", "Request rate exceeded"];
    const input = { orderId: "order-retry-test", amount: 100.0 };
    const first = await at("ValidateOrder", input, { error: throttled, retrierRetryCount: 0 });
    expect(first).toMatchObject({ status: "RETRIABLE", error: throttled[0], cause: throttled[1], inspectionData: { errorDetails: { retryBackoffIntervalSeconds: 2, retryIndex: 0 } } });
    expect((await at("ValidateOrder", input, { error: throttled, retrierRetryCount: 1 })).inspectionData?.errorDetails).toEqual({ retryBackoffIntervalSeconds: 4, retryIndex: 0 });
    expect(await at("ValidateOrder", input, { error: throttled, retrierRetryCount: 3 })).toMatchObject({ status: "CAUGHT_ERROR", nextState: "ValidationFailed" });
    // test_error_assertion_method_chaining: an error no Retry names goes straight to the Catch.
    expect(await at("ValidateOrder", { orderId: "order-error-test", amount: 50.0 }, { error: ["ValidationException", "Order amount below minimum threshold"] })).toMatchObject({
      status: "CAUGHT_ERROR",
      error: "ValidationException",
      cause: "Order amount below minimum threshold",
      nextState: "ValidationFailed",
    });
  });

  it("reports the Map's tolerance and catches its threshold error (test_map_state_tolerated_failure_threshold)", async () => {
    const input = { orderId: "order-map-test", orderItems: [1, 2, 3, 4, 5].map((i) => ({ itemId: `item-${i}` })) };
    const ok = await at("ProcessOrderItems", input, { result: input.orderItems.map((item) => ({ ...item, processed: true })) });
    expect(ok).toMatchObject({ status: "SUCCEEDED", nextState: "ParallelProcessing", inspectionData: { toleratedFailureCount: 2, maxConcurrency: 10 } });
    expect(await at("ProcessOrderItems", input, { error: ["States.ExceedToleratedFailureThreshold", "Map state exceeded tolerated failure threshold"] })).toMatchObject({ status: "CAUGHT_ERROR", nextState: "ValidationFailed" });
  });

  it("retries a failed Parallel branch, then catches it (test_parallel_state_branch_failure_handling)", async () => {
    const input = { orderId: "order-parallel-test", amount: 200.0, processedItems: [{ itemId: "item-1", processed: true }] };
    const branchFailed: [string, string] = ["States.BranchFailed", "One or more parallel branches failed"];
    expect(await at("ParallelProcessing", input, { error: branchFailed, retrierRetryCount: 0 })).toMatchObject({ status: "RETRIABLE" });
    expect(await at("ParallelProcessing", input, { error: branchFailed, retrierRetryCount: 2 })).toMatchObject({ status: "CAUGHT_ERROR", nextState: "OrderRejected" });
    expect(await at("ParallelProcessing", input, { error: ["States.TaskFailed", "Generic task failure in parallel branch"] })).toMatchObject({ status: "CAUGHT_ERROR", nextState: "OrderRejected" });
  });

  it("routes a failed validation to its Fail state (test_order_validation_failure_path)", async () => {
    const invalid = { orderId: "", amount: -50.0, customerEmail: "invalid-email" };
    const validated = await at("ValidateOrder", invalid, { result: { statusCode: 400, isValid: false, errors: ["Order ID cannot be empty"] } });
    expect(await at("CheckValidation", validated.output)).toMatchObject({ status: "SUCCEEDED", nextState: "ValidationFailed" });
    const failed = await at("ValidationFailed", validated.output);
    expect(failed).toMatchObject({ status: "FAILED", error: "ValidationError", cause: "Order validation failed" });
    expect(failed).not.toHaveProperty("nextState");
  });

  it("tests a Task inside the Map's ItemProcessor on its own (test_map_state_internal_processing_with_error_caused_by_state)", async () => {
    const item = { itemId: "item-001", quantity: 2, price: 75.0, category: "electronics" };
    const processed = await at("ProcessItem", item, { result: { itemId: "item-001", processed: true, processedQuantity: 2 } });
    expect(processed).toMatchObject({ status: "SUCCEEDED", output: { itemId: "item-001", processed: true, processedQuantity: 2 } });
    expect(processed).not.toHaveProperty("nextState");
    const failed = await at("ProcessItem", { itemId: "item-corrupted", quantity: -1 }, { error: ["ItemValidationException", "Invalid item data"] });
    expect(failed).toMatchObject({ status: "CAUGHT_ERROR", error: "ItemValidationException", nextState: "ItemProcessingFailed", inspectionData: expect.any(Object) });
  });
});
