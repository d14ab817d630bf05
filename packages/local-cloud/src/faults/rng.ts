/** A seeded pseudo-random source: same seed, same sequence, on every machine. */
export interface Rng {
  /** Next number in [0, 1). */
  next(): number;
}

/**
 * mulberry32: 32-bit state, fast, good enough statistics for fault injection (not for cryptography).
 * The seed may be any string or number; strings are hashed with FNV-1a first.
 */
export function createRng(seed: string | number): Rng {
  let state = typeof seed === "number" ? seed >>> 0 : hashString(seed);
  return {
    next(): number {
      state = (state + 0x6d2b79f5) >>> 0;
      let t = state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    },
  };
}

/** FNV-1a 32-bit hash, used to turn seeds and rule ids into independent RNG streams. */
export function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
