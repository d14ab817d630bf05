import { crc32 } from "node:zlib";
import { CreateTableCommand, DynamoDBClient, GetItemCommand, PutItemCommand } from "@aws-sdk/client-dynamodb";
import type { DynamoDBClientConfig } from "@aws-sdk/client-dynamodb";
import { createFaultPlan } from "../../src/faults";
import type { FaultPlan, FaultRule } from "../../src/faults";
import { ProxyVerdict, startDynamo, startDynamoFaultProxy, waitForTableActive } from "../../src/dynamodb";
import type { DynamoFaultProxy, LocalDynamo } from "../../src/dynamodb";
import type { ProxyRequestContext, ProxyResponseContext } from "../../src/dynamodb/fault-proxy";

const credentials = { accessKeyId: "local", secretAccessKey: "local" };
const client = (endpoint: string | undefined, extra: Partial<DynamoDBClientConfig> = {}) =>
  new DynamoDBClient({ endpoint, region: "us-east-1", credentials, ...extra });

let dynamo: LocalDynamo;
let direct: DynamoDBClient;
const clients: DynamoDBClient[] = [];
const proxies: DynamoFaultProxy[] = [];
let keyCount = 0;

beforeAll(async () => {
  dynamo = await startDynamo();
  direct = client(dynamo.endpoint);
  await direct.send(
    new CreateTableCommand({
      TableName: "ledger",
      BillingMode: "PAY_PER_REQUEST",
      AttributeDefinitions: [{ AttributeName: "pk", AttributeType: "S" }],
      KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }],
    }),
  );
  await waitForTableActive(direct, "ledger");
});

afterAll(async () => {
  for (const c of clients) c.destroy();
  direct?.destroy();
  await Promise.all(proxies.map((p) => p.stop()));
  await dynamo?.stop();
});

async function proxyWith(rules: FaultRule[] = [], seed = 1): Promise<{ proxy: DynamoFaultProxy; plan: FaultPlan }> {
  const plan = createFaultPlan({ seed, rules });
  const proxy = await startDynamoFaultProxy({ target: dynamo.endpoint, faults: plan });
  proxies.push(proxy);
  return { proxy, plan };
}

function tracked(endpoint: string | undefined, extra: Partial<DynamoDBClientConfig> = {}): DynamoDBClient {
  const c = client(endpoint, extra);
  clients.push(c);
  return c;
}

const put = (c: DynamoDBClient, pk = `k${++keyCount}`) =>
  c.send(new PutItemCommand({ TableName: "ledger", Item: { pk: { S: pk }, sk: { S: "CHARGE" } } })).then((out) => ({ out, pk }));
const exists = async (pk: string) =>
  (await direct.send(new GetItemCommand({ TableName: "ledger", Key: { pk: { S: pk } }, ConsistentRead: true }))).Item !== undefined;

describe("Function: startDynamoFaultProxy", () => {
  it("forwards SDK calls and tells which caller sent them from the endpoint path", async () => {
    // Arrange
    const { proxy } = await proxyWith();
    const seen: ProxyRequestContext[] = [];
    proxy.addHooks({ onRequest: (context) => void seen.push(context) });
    // Act
    const { pk } = await put(tracked(proxy.endpointFor("payments-7")));
    await put(tracked(proxy.endpoint));
    // Assert
    expect(proxy.endpointFor("payments-7")).toBe(`${proxy.endpoint}/w/payments-7`);
    expect(await exists(pk)).toBe(true);
    expect(seen.map((c) => [c.caller, c.request.operation, c.request.tables])).toEqual([
      ["payments-7", "PutItem", ["ledger"]],
      [undefined, "PutItem", ["ledger"]],
    ]);
    expect(proxy.stats()).toMatchObject({ requests: 2, forwarded: 2, injected: 0 });
  });

  it("keeps the endpoint path when the SDK takes it from AWS_ENDPOINT_URL_DYNAMODB (as Lambda code does)", async () => {
    // Arrange
    const { proxy } = await proxyWith();
    const callers: Array<string | undefined> = [];
    proxy.addHooks({ onRequest: (context) => void callers.push(context.caller) });
    const saved = process.env.AWS_ENDPOINT_URL_DYNAMODB;
    process.env.AWS_ENDPOINT_URL_DYNAMODB = proxy.endpointFor("from-env");
    try {
      // Act
      const { pk } = await put(tracked(undefined)); // no endpoint option: the SDK reads the variable
      // Assert
      expect(await exists(pk)).toBe(true);
      expect(callers).toEqual(["from-env"]);
    } finally {
      if (saved === undefined) delete process.env.AWS_ENDPOINT_URL_DYNAMODB;
      else process.env.AWS_ENDPOINT_URL_DYNAMODB = saved;
    }
  });

  it("answers an injected throttle exactly as DynamoDB's wire format does", async () => {
    // Arrange
    const { proxy } = await proxyWith([{ service: "dynamodb", action: "throttle", match: { operation: "PutItem" }, times: 1 }]);
    // Act: raw HTTP, to see the bytes
    const response = await fetch(proxy.endpoint, {
      method: "POST",
      headers: {
        "content-type": "application/x-amz-json-1.0",
        "x-amz-target": "DynamoDB_20120810.PutItem",
        authorization: "AWS4-HMAC-SHA256 Credential=local/20250101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=x",
        "x-amz-date": "20250101T000000Z",
      },
      body: JSON.stringify({ TableName: "ledger", Item: { pk: { S: "raw" } } }),
    });
    const text = await response.text();
    // Assert
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toBe("application/x-amz-json-1.0");
    expect(response.headers.get("x-amz-crc32")).toBe(String(crc32(text)));
    expect(response.headers.get("x-amzn-requestid")).toMatch(/^[A-Z0-9]{52}$/);
    expect(JSON.parse(text)).toEqual({
      __type: "com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException",
      message:
        "The level of configured provisioned throughput for the table was exceeded. Consider increasing your provisioning level with the UpdateTable API.",
      ThrottlingReasons: [{ reason: "TableWriteProvisionedThroughputExceeded", resource: "arn:aws:dynamodb:us-east-1:000000000000:table/ledger" }],
    });
    expect(await exists("raw")).toBe(false);
  });

  it.each([
    ["ProvisionedThroughputExceededException", 400, "client"],
    ["ThrottlingException", 400, "client"],
    ["RequestLimitExceeded", 400, "client"],
  ] as const)("surfaces an injected %s to the SDK as that error", async (error, status, fault) => {
    const { proxy } = await proxyWith([{ service: "dynamodb", action: "throttle", error, match: { table: "ledger" } }]);
    const failure = await put(tracked(proxy.endpoint, { maxAttempts: 1 })).catch((e: unknown) => e as Record<string, any>);
    expect(failure).toMatchObject({ name: error, $fault: fault, $metadata: { httpStatusCode: status, attempts: 1 } });
  });

  it("surfaces an injected 500 as InternalServerError and touches nothing", async () => {
    const { proxy, plan } = await proxyWith([{ service: "dynamodb", action: "error", times: 1 }]);
    const pk = `k${++keyCount}`;
    const failure = await put(tracked(proxy.endpoint, { maxAttempts: 1 }), pk).catch((e: unknown) => e as Record<string, any>);
    expect(failure).toMatchObject({ name: "InternalServerError", $fault: "server", $metadata: { httpStatusCode: 500 } });
    expect(await exists(pk)).toBe(false);
    expect(plan.report().byKind).toEqual({ "dynamodb.error": 1 });
  });

  it("lets the SDK retry a throttle by itself, and succeed", async () => {
    const { proxy, plan } = await proxyWith([{ service: "dynamodb", action: "throttle", match: { operation: "PutItem" }, times: 1 }]);
    const { out, pk } = await put(tracked(proxy.endpoint));
    expect(out.$metadata.attempts).toBe(2);
    expect(await exists(pk)).toBe(true);
    expect(plan.report().byKind).toEqual({ "dynamodb.throttle": 1 });
    expect(proxy.stats()).toMatchObject({ requests: 2, injected: 1, forwarded: 1 });
  });

  it("throttles by table and by probability, reproducibly from the seed", async () => {
    const rules: FaultRule[] = [{ service: "dynamodb", action: "throttle", match: { table: "ledger" }, probability: 0.5 }];
    const outcomes = async () => {
      const { proxy } = await proxyWith(rules, 99);
      const c = tracked(proxy.endpoint, { maxAttempts: 1 });
      const result: boolean[] = [];
      for (let i = 0; i < 12; i++) result.push(await put(c).then(() => true, () => false));
      return result;
    };
    const first = await outcomes();
    const second = await outcomes();
    expect(first).toEqual(second);
    expect(first).toContain(true);
    expect(first).toContain(false);
  });

  it("adds latency to matching requests only", async () => {
    const { proxy } = await proxyWith([{ service: "dynamodb", action: "latency", latencyMs: 150, match: { operation: "GetItem" } }]);
    const c = tracked(proxy.endpoint);
    const { pk } = await put(c);
    const afterPut = proxy.stats();
    await c.send(new GetItemCommand({ TableName: "ledger", Key: { pk: { S: pk } } }));
    expect(afterPut).toMatchObject({ delayed: 0, delayedMs: 0 });
    expect(proxy.stats()).toMatchObject({ delayed: 1, delayedMs: 150 });
  });

  it("lets a hook drop a request before it reaches the table, or drop the answer after the write", async () => {
    // Arrange
    const { proxy } = await proxyWith();
    const responses: ProxyResponseContext[] = [];
    proxy.addHooks({
      onRequest: ({ caller }) => (caller === "crash-before" ? ProxyVerdict.Drop : undefined),
      onResponse: (context) => {
        responses.push(context);
        return context.caller === "crash-after" ? ProxyVerdict.Drop : undefined;
      },
    });
    const before = `k${++keyCount}`;
    const after = `k${++keyCount}`;
    // Act
    const errBefore = await put(tracked(proxy.endpointFor("crash-before"), { maxAttempts: 1 }), before).catch((e: Error) => e);
    const errAfter = await put(tracked(proxy.endpointFor("crash-after"), { maxAttempts: 1 }), after).catch((e: Error) => e);
    // Assert
    expect(errBefore).toBeInstanceOf(Error);
    expect(errAfter).toBeInstanceOf(Error);
    expect(await exists(before)).toBe(false);
    expect(await exists(after)).toBe(true);
    expect(responses.map((r) => [r.caller, r.statusCode, r.injected])).toEqual([["crash-after", 200, false]]);
    expect(proxy.stats()).toMatchObject({ dropped: 2 });
  });

  it("holds a request when a hook says so, until the client gives up", async () => {
    const { proxy } = await proxyWith();
    // The client gives up once the proxy holds its request, not after a fixed time: on a loaded machine a 200 ms
    // timer could fire before the request arrived, and nothing would have been held.
    let arrived!: () => void;
    const reached = new Promise<void>((resolve) => (arrived = resolve));
    const removeHooks = proxy.addHooks({
      onRequest: () => {
        arrived();
        return ProxyVerdict.Hold;
      },
    });
    const pk = `k${++keyCount}`;
    const c = tracked(proxy.endpoint, { maxAttempts: 1 });
    const giveUp = new AbortController();
    const sending = c.send(new PutItemCommand({ TableName: "ledger", Item: { pk: { S: pk } } }), { abortSignal: giveUp.signal }).catch((e: Error) => e);
    await reached;
    giveUp.abort();
    const failure = await sending;
    removeHooks();
    expect(failure).toBeInstanceOf(Error);
    expect(await exists(pk)).toBe(false);
    expect(proxy.stats().held).toBe(1);
    await put(c); // hooks removed: traffic flows again
  });
});
