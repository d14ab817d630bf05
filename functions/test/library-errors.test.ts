/**
 * Errors a side effect gets from common libraries carry plain names the state machine must not read as the
 * wrapper's: through the real handler (Powertools on dynalite), a joi-like `ValidationError` or an http-errors
 * `ConflictError` reaches the runtime under a name the default Catch rules retry, and Powertools forgets the key,
 * so the retry runs the side effect again.
 */
import { Logger } from "@aws-lambda-powertools/logger";
import { createPipelineHandler, PermanentError } from "../src";
import { CONFLICT_ERROR_NAMES, PERMANENT_ERROR_NAMES } from "@effectively-once/contract";
import type { Dynalite } from "@effectively-once/testing";
import { depositEnv, depositEvent, type Deposit } from "./support/deposit";
import { lambdaContext } from "./support/lambda-context";
import { startDepositDynalite } from "./support/tables";

const TABLES = { idempotency: "library-errors-idempotency", effects: "library-errors-effects" };

class JoiLikeValidationError extends Error {
  override name = "ValidationError";
}

class HttpErrorsConflict extends Error {
  override name = "ConflictError";
  readonly status = 409;
}

describe("Function: errors named like the wrapper's, thrown by libraries", () => {
  let db: Dynalite;
  let next: () => Error;
  let runs = 0;
  const handler = () => {
    const env = depositEnv(db.endpoint, TABLES);
    return createPipelineHandler<Deposit, unknown>(
      {
        sideEffect: async () => {
          runs += 1;
          throw next();
        },
      },
      { env, dynamoDb: db.client, logger: new Logger({ serviceName: "library-errors", logLevel: "SILENT" }) },
    );
  };
  const quarantined: readonly string[] = [...PERMANENT_ERROR_NAMES, ...CONFLICT_ERROR_NAMES];

  beforeAll(async () => {
    db = await startDepositDynalite(TABLES);
  });
  afterAll(async () => db?.stop());
  beforeEach(() => {
    runs = 0;
  });

  it.each<[string, () => Error]>([
    ["a joi-like ValidationError", () => new JoiLikeValidationError('"amount" must be less than 100')],
    ["an http-errors ConflictError (409)", () => new HttpErrorsConflict("idempotency key in use")],
  ])("reports %s under a name the state machine retries, and runs the side effect again on the retry", async (_case, error) => {
    // Arrange
    next = error;
    const run = handler();
    const event = depositEvent();

    // Act
    const first = await run(event, lambdaContext("deposit-test")).catch((e: Error) => e);
    const retry = await run({ ...event, receiveCount: 2 }, lambdaContext("deposit-test")).catch((e: Error) => e);

    // Assert
    expect(quarantined).not.toContain((first as Error).name);
    expect(quarantined).not.toContain((retry as Error).name);
    expect(runs).toBe(2);
  });

  it("still reports the wrapper's own PermanentError under the reserved name", async () => {
    // Arrange
    next = () => new PermanentError("no");

    // Act
    const attempt = handler()(depositEvent(), lambdaContext("deposit-test"));

    // Assert
    await expect(attempt).rejects.toMatchObject({ name: "PipelineRejected", message: "PermanentError: no" });
  });
});
