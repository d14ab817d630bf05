/**
 * The second layer's record ids (packages/contract/src/second-layer-ids.ts), with the real Powertools
 * persistence layer against dynalite: a rename of the function forgets nothing, ids are SHA-256 of the key text (no
 * producer can make two keys share one), `ops` finds a key's record from the stack's outputs alone, and during the
 * upgrade's transition the records release 0.2 wrote (`<function name>#<md5>`, written here by Powertools itself
 * with 0.2's settings) still answer.
 */
import { createHash } from "node:crypto";
import { IdempotencyConfig, makeIdempotent } from "@aws-lambda-powertools/idempotency";
import { DynamoDBPersistenceLayer } from "@aws-lambda-powertools/idempotency/dynamodb";
import { DynamoDBDocumentClient, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { Context } from "aws-lambda";
import fc from "fast-check";
import type { PipelineHandler } from "../src";
import { readPipelineConfig } from "../src/config";
import { EVENT_KEY_JMESPATH, PAYLOAD_VALIDATION_JMESPATH } from "../src/idempotency";
import { validatePipelineEvent } from "../src/validate";
import { effectKey } from "@effectively-once/contract";
import { getPowertoolsRecords } from "@effectively-once/ops";
import type { OpsContext } from "@effectively-once/ops";
import type { Dynalite } from "@effectively-once/testing";
import { depositEnv, depositEvent, redelivery, type DepositResult } from "./support/deposit";
import { readEffects, readIdempotencyRecords } from "./support/effects";
import { createGate } from "./support/gate";
import { lambdaContext } from "./support/lambda-context";
import { applyEnv, loadHandler } from "./support/load-handler";
import { startDepositDynalite } from "./support/tables";

const TABLES = { idempotency: "ids-idempotency", effects: "ids-effects" };
/** The function's name under release 0.2, which named its records after it. */
const OLD_NAME = "deposits-worker";

let db: Dynalite;
const restores: (() => void)[] = [];

beforeAll(async () => {
  db = await startDepositDynalite(TABLES);
});
afterAll(async () => {
  restores.reverse().forEach((restore) => restore());
  await db?.stop();
});

/** The deployments of this file, by their environment: each handler's cold start, kept warm for the next call. */
const deployments = new Map<string, PipelineHandler<DepositResult>>();

/**
 * The deposit function deployed as `name` (Lambda sets AWS_LAMBDA_FUNCTION_NAME), with `env` on top: a cold start the
 * first time, then the warm instance, as Lambda reuses one (a fresh module graph costs ~0.25 s of CPU). Every test
 * draws its own keys, so a warm instance carries nothing from one test into another.
 */
function deployed(name: string, env: Record<string, string | undefined> = {}): PipelineHandler<DepositResult> {
  const full = { ...depositEnv(db.endpoint, TABLES), AWS_LAMBDA_FUNCTION_NAME: name, ...env };
  const id = JSON.stringify(Object.entries(full).map(([variable, value]) => [variable, value ?? null]));
  const warm = deployments.get(id);
  if (warm) {
    // The process's environment is the deployment's again (the SDK reads the endpoint override per request).
    const previous = applyEnv(full);
    restores.push(() => applyEnv(previous));
    return warm;
  }
  const { handler, restore } = loadHandler(full);
  restores.push(restore);
  deployments.set(id, handler);
  return handler;
}

const effectsOf = (businessKey: string) => readEffects(db.client, TABLES.effects, effectKey(businessKey, "deposit"));
const sha256Id = (businessKey: string) => `effectively-once.v1#${createHash("sha256").update(JSON.stringify([businessKey, "deposit"])).digest("base64")}`;

/**
 * What release 0.2's wrapper stored for `event`: Powertools with `keyPrefix` = the function's name and its default MD5.
 * `hold` is called inside the function, so a gate it waits on is reached only once the INPROGRESS record is written.
 */
async function writtenByRelease02(event: ReturnType<typeof depositEvent>, result: unknown, options: { hold?: () => Promise<void>; remainingMs?: number } = {}): Promise<void> {
  const config = readPipelineConfig(depositEnv(db.endpoint, TABLES));
  const checked = validatePipelineEvent(event, config);
  const run = makeIdempotent(
    // Two parameters, as 0.2's wrapper had: Powertools then takes the second as the Lambda context (in-progress expiry).
    async (_event: unknown, _lambda: Context) => {
      await options.hold?.();
      return result;
    },
    {
      persistenceStore: new DynamoDBPersistenceLayer({ tableName: TABLES.idempotency, awsSdkV3Client: db.client }),
      config: new IdempotencyConfig({ eventKeyJmesPath: EVENT_KEY_JMESPATH, payloadValidationJmesPath: PAYLOAD_VALIDATION_JMESPATH, expiresAfterSeconds: 3600, throwOnNoIdempotencyKey: true }),
      keyPrefix: OLD_NAME,
    },
  );
  await run(checked, lambdaContext(OLD_NAME, options.remainingMs));
}

describe("Second-layer ids: a rename forgets nothing", () => {
  it("the same key after the function is renamed is answered as a duplicate: the side effect runs once", async () => {
    // Arrange: applied by the function as deployed before a refactor renamed it.
    const event = depositEvent();
    const first = await deployed("deposits-worker")(event, lambdaContext("deposits-worker"));

    // Act: the same key reaches the renamed function (the ledger lost it: a takeover, a failed Complete, a release).
    const again = await deployed("deposits-worker-v2")(redelivery(event), lambdaContext("deposits-worker-v2"));

    // Assert
    expect(again).toEqual(first);
    const effects = await effectsOf(event.businessKey);
    expect(effects.calls).toHaveLength(1);
    expect(effects.effects).toHaveLength(1);
  });

  it("another payload under the same key after a rename is still a conflict (IdempotencyValidationError), never applied", async () => {
    const event = depositEvent();
    await deployed("deposits-worker")(event, lambdaContext("deposits-worker"));
    await expect(deployed("deposits-worker-v3")(redelivery(event, { amount: 99 }), lambdaContext("deposits-worker-v3"))).rejects.toHaveProperty("name", "IdempotencyValidationError");
    expect((await effectsOf(event.businessKey)).calls).toHaveLength(1);
  });
});

describe("Second-layer ids: different keys never share an id", () => {
  it("Powertools stores each record as effectively-once.v1#base64(SHA-256 of the key text), one per key, hostile keys included", async () => {
    const handler = deployed("deposits-worker");
    const ref = fc.oneof(fc.string({ minLength: 1, maxLength: 20 }), fc.constantFrom("a#b", 'q"z', "a\\b", "\ud800", "café", "cafe\u0301", "__proto__"));
    const refs = fc.sample(fc.uniqueArray(ref, { minLength: 8, maxLength: 8 }), { numRuns: 1, seed: 29 })[0];
    const keys: string[] = [];
    for (const r of refs) {
      const event = depositEvent({ businessKey: JSON.stringify(["acc-ids", r]), payload: { accountId: "acc-ids", ref: r, amount: 5 } });
      await handler(event, lambdaContext("deposits-worker"));
      keys.push(event.businessKey);
    }
    const stored = new Set((await readIdempotencyRecords(db.client, TABLES.idempotency)).map((record) => record.id));
    // Each key's record is under the SHA-256 id of exactly its text (so two keys share an id only if SHA-256 collides).
    for (const key of keys) expect(stored.has(sha256Id(key))).toBe(true);
    expect(new Set(keys.map(sha256Id)).size).toBe(keys.length);
  });
});

describe("Second-layer ids: ops finds the record from the stack's outputs, without the function's name", () => {
  it("reads the record the function wrote, under the prefix and digest the outputs name", async () => {
    // Arrange
    const event = depositEvent();
    await deployed("deposits-worker-v4")(event, lambdaContext("deposits-worker-v4"));
    const ctx = {
      dynamodb: DynamoDBDocumentClient.from(db.client),
      outputs: { idempotency_table_name: TABLES.idempotency, idempotency_key_prefix: "effectively-once.v1", idempotency_hash_function: "sha256", operation: "deposit" },
      targetLabel: "test outputs",
      now: () => Date.now(),
    } as unknown as OpsContext;

    // Act
    const records = await getPowertoolsRecords(ctx, event.businessKey, "deposit");

    // Assert
    expect(records).toEqual([expect.objectContaining({ id: sha256Id(event.businessKey), status: "COMPLETED", legacy: false })]);
  });
});

describe("Second-layer ids: the upgrade's transition honours release 0.2's records", () => {
  const upgraded = (legacy: string | undefined = OLD_NAME) => deployed(OLD_NAME, { IDEMPOTENCY_LEGACY_KEY_PREFIX: legacy });

  it("a key applied by release 0.2 is a duplicate after the upgrade: the stored result comes back, the side effect does not run", async () => {
    // Arrange
    const event = depositEvent();
    const stored = { depositId: "dep_0.2", outcome: "applied", amount: 1250 };
    await writtenByRelease02(event, stored);

    // Act
    const again = await upgraded()(redelivery(event), lambdaContext(OLD_NAME));

    // Assert
    expect(again).toEqual(stored);
    expect((await effectsOf(event.businessKey)).calls).toHaveLength(0);
  });

  it("another payload under a key release 0.2 applied is a conflict (IdempotencyValidationError)", async () => {
    const event = depositEvent();
    await writtenByRelease02(event, { depositId: "dep_0.2", outcome: "applied", amount: 1250 });
    await expect(upgraded()(redelivery(event, { amount: 7 }), lambdaContext(OLD_NAME))).rejects.toHaveProperty("name", "IdempotencyValidationError");
    expect((await effectsOf(event.businessKey)).calls).toHaveLength(0);
  });

  it("while release 0.2's invocation of the key still runs, the upgraded function answers IdempotencyAlreadyInProgressError", async () => {
    // Arrange: 0.2's invocation holds its record INPROGRESS.
    const event = depositEvent();
    const gate = createGate();
    const old = writtenByRelease02(event, { depositId: "dep_0.2", outcome: "applied", amount: 1250 }, { hold: gate.wait });
    await gate.reached;

    // Act / Assert: another payload too is retried, not a conflict, while the other run may still fail.
    await expect(upgraded()(redelivery(event), lambdaContext(OLD_NAME))).rejects.toHaveProperty("name", "IdempotencyAlreadyInProgressError");
    await expect(upgraded()(redelivery(event, { amount: 7 }), lambdaContext(OLD_NAME))).rejects.toHaveProperty("name", "IdempotencyAlreadyInProgressError");
    gate.open();
    await old;
    expect((await effectsOf(event.businessKey)).calls).toHaveLength(0);
  });

  it("an INPROGRESS record of 0.2 past its invocation's time no longer holds the key (that invocation ended), as in Powertools", async () => {
    // Arrange: 0.2's invocation whose time is already up (no real wait); its record stays INPROGRESS (the gate stays shut).
    const event = depositEvent();
    const gate = createGate();
    void writtenByRelease02(event, { depositId: "dep_0.2" }, { hold: gate.wait, remainingMs: -1000 });
    await gate.reached;

    // Act / Assert
    await expect(upgraded()(redelivery(event), lambdaContext(OLD_NAME))).resolves.toMatchObject({ outcome: "applied" });
  });

  it("an expired record of release 0.2 no longer answers, as Powertools itself would not", async () => {
    // Arrange: written 0.2's way, then its expiry moved into the past (DynamoDB's TTL deletes it lazily).
    const event = depositEvent();
    await writtenByRelease02(event, { depositId: "dep_0.2", outcome: "applied", amount: 1250 });
    const id = `${OLD_NAME}#${createHash("md5").update(JSON.stringify([event.businessKey, "deposit"])).digest("base64")}`;
    expect((await readIdempotencyRecords(db.client, TABLES.idempotency)).find((r) => r.id === id)).toMatchObject({ status: "COMPLETED" });
    const past = Math.floor(Date.now() / 1000) - 60;
    await DynamoDBDocumentClient.from(db.client).send(new UpdateCommand({ TableName: TABLES.idempotency, Key: { id }, UpdateExpression: "SET expiration = :past", ExpressionAttributeValues: { ":past": past } }));

    // Act / Assert: a new application, by design (the key's memory ended).
    await expect(upgraded()(redelivery(event, { amount: 7 }), lambdaContext(OLD_NAME))).resolves.toMatchObject({ outcome: "applied", amount: 7 });
  });

  it("without the legacy prefix (after the transition) the same key is applied again: the reset the transition prevents", async () => {
    const event = depositEvent();
    await writtenByRelease02(event, { depositId: "dep_0.2", outcome: "applied", amount: 1250 });
    await expect(deployed(OLD_NAME, { IDEMPOTENCY_LEGACY_KEY_PREFIX: undefined })(redelivery(event), lambdaContext(OLD_NAME))).resolves.toMatchObject({ outcome: "applied" });
  });

  it("ops reads release 0.2's record too while the stack's outputs name its prefix", async () => {
    const event = depositEvent();
    await writtenByRelease02(event, { depositId: "dep_0.2", outcome: "applied", amount: 1250 });
    const outputs = { idempotency_table_name: TABLES.idempotency, idempotency_key_prefix: "effectively-once.v1", idempotency_hash_function: "sha256", operation: "deposit" };
    const ctx = (extra: Record<string, string>) => ({ dynamodb: DynamoDBDocumentClient.from(db.client), outputs: { ...outputs, ...extra }, targetLabel: "test outputs", now: () => Date.now() }) as unknown as OpsContext;
    expect(await getPowertoolsRecords(ctx({ idempotency_legacy_key_prefix: OLD_NAME }), event.businessKey, "deposit")).toEqual([expect.objectContaining({ status: "COMPLETED", legacy: true })]);
    expect(await getPowertoolsRecords(ctx({ idempotency_legacy_key_prefix: "" }), event.businessKey, "deposit")).toEqual([]);
    // A stack of release 0.2 itself (no id outputs): its function named the records after itself.
    const old = { dynamodb: DynamoDBDocumentClient.from(db.client), outputs: { idempotency_table_name: TABLES.idempotency, function_name: OLD_NAME }, targetLabel: "0.2", now: () => Date.now() } as unknown as OpsContext;
    expect(await getPowertoolsRecords(old, event.businessKey, "deposit")).toEqual([expect.objectContaining({ status: "COMPLETED", legacy: true })]);
  });
});
