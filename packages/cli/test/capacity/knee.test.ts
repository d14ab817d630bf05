import { findKnee, relativeError } from "../../src/capacity/knee";

describe("findKnee (packages/cli/src/capacity/knee.ts)", () => {
  it("takes the plateau of the steps that fell behind the offered rate", () => {
    const knee = findKnee([
      { offered: 10, throughput: 9.8 },
      { offered: 5, throughput: 5 },
      { offered: 15, throughput: 10.4 },
      { offered: 20, throughput: 10.2 },
    ]);
    expect(knee).not.toBeNull();
    expect(knee!.tracking.map((s) => s.offered)).toEqual([5, 10]);
    expect(knee!.saturated.map((s) => s.offered)).toEqual([15, 20]);
    expect(knee!.rate).toBeCloseTo(10.3, 5);
    expect(knee!.spread).toBeCloseTo(0.1 / 10.3, 5);
  });

  it("is not moved by one step that dipped", () => {
    const knee = findKnee([
      { offered: 4, throughput: 4 },
      { offered: 7, throughput: 4.7 },
      { offered: 9, throughput: 7.7 },
      { offered: 11, throughput: 8.7 },
      { offered: 13, throughput: 8.7 },
    ]);
    expect(knee!.rate).toBeCloseTo(8.2, 5);
  });

  it("starts the plateau after the last step that kept up, not at a low step that lost a message", () => {
    const knee = findKnee([
      { offered: 3, throughput: 2.6 },
      { offered: 6, throughput: 6 },
      { offered: 12, throughput: 9 },
      { offered: 15, throughput: 9.2 },
    ]);
    expect(knee!.tracking.map((s) => s.offered)).toEqual([3, 6]);
    expect(knee!.rate).toBeCloseTo(9.1, 5);
  });

  it("is null when every step kept up (the knee is above the steps)", () => {
    expect(findKnee([{ offered: 2, throughput: 2 }, { offered: 4, throughput: 3.9 }])).toBeNull();
  });

  it("measures the error against the prediction", () => {
    expect(relativeError(9, 10)).toBeCloseTo(0.1, 10);
    expect(relativeError(12, 10)).toBeCloseTo(0.2, 10);
  });
});
