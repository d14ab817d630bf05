import { formatProgress, startProgressBar, type ProgressState } from "../../src/soak/progress-bar";

const STATE: ProgressState = { total: 10_000, published: 4_100, settled: 3_812, retried: 87, faults: 230, elapsedMs: 40_000 };

describe("Function: formatProgress", () => {
  it("shows the bar, counts, rate and an estimate of the time left", () => {
    // Act
    const line = formatProgress(STATE);

    // Assert
    expect(line).toContain("[#########...............]  38%");
    expect(line).toContain("3,812/10,000 settled");
    expect(line).toContain("published 4,100");
    expect(line).toContain("95 msg/s");
    expect(line).toContain("ETA 65 s");
  });

  it("caps the bar at 100% and drops the estimate when done", () => {
    const line = formatProgress({ ...STATE, settled: 10_000 });
    expect(line).toContain("[########################] 100%");
    expect(line).not.toContain("ETA");
  });
});

describe("Function: startProgressBar", () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it("rewrites one line on a terminal", () => {
    // Arrange
    const written: string[] = [];
    const bar = startProgressBar({ isTTY: true, write: (text: string) => written.push(text) }, () => STATE);

    // Act
    jest.advanceTimersByTime(450);
    bar.stop();

    // Assert
    expect(written).toHaveLength(3);
    expect(written[0]).toMatch(/^\r\[#+\.+\].*\x1b\[K$/);
    expect(written[2].endsWith("\x1b[K\n")).toBe(true);
  });

  it("writes a plain line every interval elsewhere (CI logs)", () => {
    // Arrange
    const written: string[] = [];
    const bar = startProgressBar({ isTTY: false, write: (text: string) => written.push(text) }, () => STATE, { lineIntervalMs: 1000 });

    // Act
    jest.advanceTimersByTime(2500);
    bar.stop();

    // Assert
    expect(written).toHaveLength(3);
    for (const line of written) expect(line).toMatch(/^\[#+\.+\][^\r]*\n$/);
  });
});
