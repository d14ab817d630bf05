import { dateWithRelative, duration, humanDate, readableDetail, relativeTime, table } from "../src/format";

describe("format", () => {
  const now = Date.parse("2025-03-01T12:00:00Z");

  it("humanDate: UTC, to the second", () => {
    expect(humanDate(Date.parse("2025-03-01T12:00:03.999Z"))).toBe("2025-03-01 12:00:03 UTC");
  });

  it("relativeTime: future as 'in …', past as '… ago', one rounded unit", () => {
    expect(relativeTime(now + 3 * 60_000, now)).toBe("in 3 min");
    expect(relativeTime(now - 2 * 3_600_000, now)).toBe("2 h ago");
    expect(relativeTime(now + 45_000, now)).toBe("in 45 s");
    expect(relativeTime(now - 7 * 86_400_000, now)).toBe("7 d ago");
    expect(relativeTime(now + 400, now)).toBe("just now");
    expect(dateWithRelative(now - 90 * 60_000, now)).toBe("2025-03-01 10:30:00 UTC (2 h ago)");
  });

  it("duration: switches unit where the smaller one stops being readable", () => {
    expect([89_000, 90_000, 89 * 60_000, 90 * 60_000, 47 * 3_600_000, 48 * 3_600_000].map(duration)).toEqual(["89 s", "2 min", "89 min", "2 h", "47 h", "2 d"]);
  });

  it("readableDetail: a Lambda error's JSON cause becomes its message; long hashes are shortened", () => {
    expect(readableDetail('DownstreamConflictError: {"errorType":"DownstreamConflictError","errorMessage":"amount differs","trace":[]}')).toBe(
      "DownstreamConflictError: amount differs",
    );
    expect(readableDetail(`key already applied with payload hash ${"ab".repeat(32)} by message m-1`)).toBe("key already applied with payload hash abababababab… by message m-1");
    expect(readableDetail("missing or empty field(s): orderId")).toBe("missing or empty field(s): orderId");
  });

  it("table: aligned columns, last column unpadded", () => {
    expect(table(["A", "BB"], [["xxx", "y"], ["z", "long value"]])).toBe("A    BB\nxxx  y\nz    long value");
  });
});
