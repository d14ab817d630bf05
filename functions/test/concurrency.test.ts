import { PermanentError } from "../src/errors";
import { waitFor } from "@effectively-once/testing";
import { depositEvent, redelivery } from "./support/deposit";
import { createGate } from "./support/gate";
import { beforeCommand, failTimes } from "./support/intercept";
import { lambdaContext } from "./support/lambda-context";
import { depositTables } from "./support/deposit-tables";

const TABLES = { idempotency: "race-idempotency", effects: "race-effects" };

describe("Function: createPipelineHandler under concurrency, failures and crashes", () => {
  const { newInstance, effectsOf, recordOf } = depositTables(TABLES);

  it("answers a duplicate that arrives while the first is still running with IdempotencyAlreadyInProgressError", async () => {
    // Arrange: instance A's downstream write waits on a gate the test holds.
    const slow = newInstance();
    const other = newInstance();
    const gate = createGate();
    beforeCommand(slow.effectsClient, "PutItemCommand", () => gate.wait());
    const event = depositEvent();
    const first = slow.handler(event, lambdaContext(slow.functionName));
    await gate.reached;

    // Act
    const duplicate = other.handler(redelivery(event), lambdaContext(other.functionName));

    // Assert
    await expect(duplicate).rejects.toHaveProperty("name", "IdempotencyAlreadyInProgressError");
    expect(await recordOf(event.businessKey)).toMatchObject({ status: "INPROGRESS" });
    gate.open();
    await expect(first).resolves.toMatchObject({ outcome: "applied" });
    const effects = await effectsOf(event.businessKey);
    expect(effects.calls).toHaveLength(1);
    expect(effects.effects).toHaveLength(1);
  });

  it("answers another payload that arrives while the first is still running as in progress, not as a conflict: the first may yet fail", async () => {
    // Arrange: instance A's invocation (amount 1250) waits on a gate, then its downstream refuses it (found by the search:
    // a timed-out execution's invocation still running while the next message of the key arrives with its own payload).
    const slow = newInstance();
    const other = newInstance();
    const gate = createGate();
    beforeCommand(slow.effectsClient, "PutItemCommand", async () => {
      await gate.wait();
      throw new PermanentError("refused");
    });
    const event = depositEvent();
    const first = slow.handler(event, lambdaContext(slow.functionName));
    await gate.reached;

    // Act
    const another = other.handler(redelivery(event, { amount: 990 }), lambdaContext(other.functionName));

    // Assert: transient while the first runs; once it failed, the other payload is the key's first application.
    await expect(another).rejects.toHaveProperty("name", "IdempotencyAlreadyInProgressError");
    gate.open();
    await expect(first).rejects.toHaveProperty("name", "PipelineRejected");
    await expect(other.handler(redelivery(event, { amount: 990 }), lambdaContext(other.functionName))).resolves.toMatchObject({ outcome: "applied", amount: 990 });
    // And a third payload against the completed record is a conflict.
    await expect(other.handler(redelivery(event, { amount: 7 }), lambdaContext(other.functionName))).rejects.toHaveProperty("name", "IdempotencyValidationError");
  });

  it("deletes the Powertools record when the side effect throws, so the retry runs and applies once", async () => {
    // Arrange: the downstream's first write fails.
    const instance = newInstance();
    beforeCommand(
      instance.effectsClient,
      "PutItemCommand",
      failTimes(1, () => Object.assign(new Error("connection reset by downstream"), { name: "DownstreamUnavailable" })),
    );
    const event = depositEvent();
    const failed = instance.handler(event, lambdaContext(instance.functionName));
    await expect(failed).rejects.toHaveProperty("name", "DownstreamUnavailable");
    expect(await recordOf(event.businessKey)).toBeUndefined();

    // Act
    const retried = await instance.handler(redelivery(event), lambdaContext(instance.functionName));

    // Assert
    expect(retried).toMatchObject({ outcome: "applied", amount: 1250 });
    expect(await recordOf(event.businessKey)).toMatchObject({ status: "COMPLETED" });
    const effects = await effectsOf(event.businessKey);
    expect(effects.effects).toHaveLength(1);
    expect(effects.applied).toHaveLength(1);
    expect(effects.calls).toHaveLength(1);
  });

  it("after a crash between the effect and COMPLETED, a retry past the in-progress expiry calls again and the downstream replays", async () => {
    // Arrange: the effect lands, then saving COMPLETED fails (what a crash leaves behind: INPROGRESS).
    const instance = newInstance();
    beforeCommand(
      instance.dynamoDb,
      "UpdateItemCommand",
      failTimes(1, () => Object.assign(new Error("sandbox crashed"), { name: "Crash" })),
    );
    const event = depositEvent();
    const remainingMs = 1; // the crashed invocation had 1 ms left, so its in-progress lease ends at once
    const crashed = instance.handler(event, lambdaContext(instance.functionName, remainingMs));
    await expect(crashed).rejects.toHaveProperty("name", "IdempotencyPersistenceLayerError");
    const stuck = await recordOf(event.businessKey);
    expect(stuck).toMatchObject({ status: "INPROGRESS", inProgressExpiration: expect.any(Number) });
    const leaseEnd = stuck?.inProgressExpiration as number;
    await waitFor(() => Date.now() > leaseEnd, { intervalMs: 1, timeoutMs: 1_000, message: "in-progress expiry passed" });

    // Act
    const retried = await instance.handler(redelivery(event), lambdaContext(instance.functionName));

    // Assert: called twice, applied once.
    const effects = await effectsOf(event.businessKey);
    expect(retried).toMatchObject({ outcome: "replayed", depositId: effects.effects[0]?.depositId });
    expect(effects.calls.map((call) => call.outcome).sort()).toEqual(["applied", "replayed"]);
    expect(effects.effects).toHaveLength(1);
    expect(await recordOf(event.businessKey)).toMatchObject({ status: "COMPLETED" });
  });
});
