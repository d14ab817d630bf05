import { generateStream as generate, LoadKind, streamMix, type LoadMessage, type StreamOptions } from "../../src/soak/generator";
import { TICKETS_CONTRACT, TICKETS_PROFILE } from "@effectively-once/testing";

const BASE: StreamOptions = { messages: 1000, duplicateRatio: 0.3, invalidRatio: 0.02, conflictRatio: 0.01, rejectedRatio: 0.01, seed: 7, runId: "t" };
const generateStream = (options: StreamOptions) => generate(TICKETS_PROFILE, TICKETS_CONTRACT, options);

function count(messages: readonly LoadMessage[], kind: LoadKind): number {
  return messages.filter((m) => m.kind === kind).length;
}

describe("Function: streamMix", () => {
  it("splits the messages by the ratios, the unique messages taking the remainder", async () => {
    // Act
    const mix = streamMix(BASE);

    // Assert
    expect(mix).toEqual({ unique: 660, "concurrent-duplicate": 150, "late-duplicate": 150, "payload-conflict": 10, "invalid-json": 10, "missing-field": 10, rejected: 10 });
    expect(Object.values(mix).reduce((a, b) => a + b, 0)).toBe(1000);
  });
});

describe("Function: generateStream", () => {
  it("produces the mix, in a seeded order that repeats exactly", async () => {
    // Act
    const first = await generateStream(BASE);
    const again = await generateStream(BASE);
    const other = await generateStream({ ...BASE, seed: 8 });

    // Assert
    expect(first).toHaveLength(1000);
    for (const [kind, n] of Object.entries(streamMix(BASE))) expect(count(first, kind as LoadKind)).toBe(n);
    expect(again).toEqual(first);
    expect(other.map((m) => m.body)).not.toEqual(first.map((m) => m.body));
  });

  it("makes every duplicate repeat an earlier unique body, a concurrent one right behind it", async () => {
    // Act
    const stream = await generateStream(BASE);

    // Assert
    expect(stream[0].kind).toBe(LoadKind.Unique);
    const seen = new Set<string>();
    let lastUnique = "";
    for (const m of stream) {
      if (m.kind === LoadKind.Unique) {
        expect(seen.has(m.body)).toBe(false);
        seen.add(m.body);
        lastUnique = m.body;
      }
      if (m.kind === LoadKind.LateDuplicate) expect(seen.has(m.body)).toBe(true);
      if (m.kind === LoadKind.ConcurrentDuplicate) expect(m.body).toBe(lastUnique);
    }
    expect(new Set(stream.filter((m) => m.effectKey).map((m) => m.effectKey)).size).toBe(660 + 10);
  });

  it("gives a conflict an earlier key with another payload, and bodies the pipeline must quarantine", async () => {
    // Act
    const stream = await generateStream(BASE);
    const byKey = new Map(stream.filter((m) => m.kind === LoadKind.Unique).map((m) => [m.effectKey, m]));

    // Assert
    for (const conflict of stream.filter((m) => m.kind === LoadKind.Conflict)) {
      const original = byKey.get(conflict.effectKey)!;
      expect(original).toBeDefined();
      expect(conflict.fingerprint).not.toBe(original.fingerprint);
      expect(stream.indexOf(conflict)).toBeGreaterThan(stream.indexOf(original));
    }
    for (const m of stream.filter((x) => x.kind === LoadKind.InvalidJson)) expect(() => JSON.parse(m.body)).toThrow();
    for (const m of stream.filter((x) => x.kind === LoadKind.MissingField)) expect(JSON.parse(m.body).number).toBeUndefined();
    for (const m of stream.filter((x) => x.kind === LoadKind.Rejected)) expect(JSON.parse(m.body).priority).toBe(0);
  });

  it("refuses a mix with no room for unique messages, saying what to change", async () => {
    await expect(generateStream({ ...BASE, messages: 10, duplicateRatio: 0.9, invalidRatio: 0.1 })).rejects.toThrow(/lower the duplicate\/invalid\/conflict ratios/);
  });
});

describe("Function: generateStream, with a profile that has no rejected message", () => {
  it("refuses a rejected ratio it cannot honour, naming the setting", async () => {
    const { rejected: _none, ...profile } = TICKETS_PROFILE;
    await expect(generate(profile, TICKETS_CONTRACT, BASE)).rejects.toThrow(/rejectedRatio > 0.*set it to 0/);
  });
});
