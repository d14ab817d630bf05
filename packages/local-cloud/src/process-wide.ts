import os from "node:os";

/**
 * One value per process, by `name`, however many times the calling module is loaded: jest gives each test file its own
 * module registry (and its own `globalThis`), but Node's core modules once per process, so the value is held on one.
 * For what a process may keep between the local clouds it starts one after another (idle emulator threads, inflated
 * Lambda archives), never for a cloud's own state.
 */
export function processWide<T>(name: string, create: () => T): T {
  const key = Symbol.for(`@effectively-once/local-cloud:${name}`);
  const holder = os as unknown as Record<symbol, T | undefined>;
  return (holder[key] ??= create());
}
