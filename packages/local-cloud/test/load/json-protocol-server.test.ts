import { startJsonService } from "../../src/json-protocol/server";
import type { LoopbackEndpoint } from "../../src/json-protocol/loopback";

class Refused extends Error {}

describe("Function: startJsonService", () => {
  let service: LoopbackEndpoint;
  beforeAll(async () => {
    service = await startJsonService({
      contentType: "application/x-amz-json-1.1",
      maxBodyBytes: 64,
      handle: (target, body) => {
        if (target === "Svc.Refuse") throw new Refused("refused by name");
        if (target === "Svc.OwnSyntaxError") return JSON.parse("{broken");
        return { echo: body() };
      },
      errorOf: (e) => (e instanceof Refused ? { code: "ValidationException", status: 400 } : { code: "InternalFailure", status: 500 }),
    });
  });
  afterAll(() => service.stop());

  const call = (target: string, body: string) => fetch(service.endpoint, { method: "POST", headers: { "x-amz-target": target }, body });

  it("names an error's code in x-amzn-errortype as well as __type, as AWS's JSON protocols do", async () => {
    // Act
    const res = await call("Svc.Refuse", "{}");

    // Assert
    expect(res.status).toBe(400);
    expect(res.headers.get("x-amzn-errortype")).toBe("ValidationException");
    expect(await res.json()).toEqual({ __type: "ValidationException", message: "refused by name" });
  });

  it("answers SerializationException for a request body that is not JSON, and the service's own error for a SyntaxError of its own", async () => {
    // Act
    const notJson = await call("Svc.Echo", "{not json");
    const own = await call("Svc.OwnSyntaxError", "{}");

    // Assert
    expect({ status: notJson.status, body: await notJson.json() }).toMatchObject({ status: 400, body: { __type: "SerializationException" } });
    expect({ status: own.status, body: await own.json() }).toMatchObject({ status: 500, body: { __type: "InternalFailure" } });
  });

  it("answers 413 RequestEntityTooLargeException above the body limit, and still answers the next request", async () => {
    // Act
    const large = await call("Svc.Echo", JSON.stringify({ pad: "x".repeat(100) }));
    const small = await call("Svc.Echo", '{"a":1}');

    // Assert
    expect({ status: large.status, body: await large.json() }).toMatchObject({ status: 413, body: { __type: "RequestEntityTooLargeException" } });
    expect(await small.json()).toEqual({ echo: { a: 1 } });
  });
});
