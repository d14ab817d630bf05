import { LAMBDA_ENVIRONMENT_MAX_BYTES, lambdaEnvironmentBytes } from "../src/lambda-limits";

describe("lambdaEnvironmentBytes", () => {
  it("measures the compact JSON object as UTF-8 bytes, as Lambda quotes it", () => {
    expect(lambdaEnvironmentBytes([])).toBe(2);
    expect(lambdaEnvironmentBytes([["A", "b"]])).toBe(Buffer.byteLength('{"A":"b"}'));
    // Two-byte and four-byte characters count by their bytes, JSON escapes by their escaped text.
    expect(lambdaEnvironmentBytes([["A", "é😀"], ["B", 'q"\n']])).toBe(Buffer.byteLength(JSON.stringify({ A: "é😀", B: 'q"\n' })));
  });

  it("counts a name a plain object's assignment would not keep (__proto__)", () => {
    const pairs: [string, string][] = [["__proto__", "x"]];
    expect(lambdaEnvironmentBytes(pairs)).toBe(Buffer.byteLength('{"__proto__":"x"}'));
  });

  it("puts the edge where Lambda does: 4,096 bytes", () => {
    expect(LAMBDA_ENVIRONMENT_MAX_BYTES).toBe(4096);
    expect(lambdaEnvironmentBytes([["BIG", "é".repeat(2043)]])).toBe(4096);
  });
});
