import { mapBounded } from "../src/batch";

/** A promise the test settles by hand. */
function deferred() {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("Function: mapBounded", () => {
  it("starts at most `limit` items, starts the next as one ends, and keeps the items' order", async () => {
    // Arrange
    const gates = Array.from({ length: 5 }, deferred);
    const started: number[] = [];

    // Act
    const all = mapBounded([0, 1, 2, 3, 4], 2, async (item) => {
      started.push(item);
      await gates[item]!.promise;
      return item * 10;
    });
    await settle();
    const first = [...started];
    gates[1]!.resolve();
    await settle();
    const second = [...started];
    for (const gate of gates) gate.resolve();

    // Assert
    expect(first).toEqual([0, 1]);
    expect(second).toEqual([0, 1, 2]);
    expect(await all).toEqual([0, 10, 20, 30, 40]);
  });

  it("answers an empty list at once", async () => {
    // Act / Assert
    expect(await mapBounded([], 3, async () => 1)).toEqual([]);
  });
});
