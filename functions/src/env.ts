import { ConfigurationError } from "./errors";

/** The shape of `process.env`, accepted as a parameter so config parsing stays testable. */
export type Environment = Readonly<Record<string, string | undefined>>;

/** A non-empty (after trimming) string variable. */
export function requireString(env: Environment, name: string): string {
  const value = env[name]?.trim();
  if (!value) {
    throw new ConfigurationError(name, `${name} is not set: set it to a non-empty value`);
  }
  return value;
}

/** A variable holding a positive integer, e.g. a number of seconds. */
export function requirePositiveInteger(env: Environment, name: string): number {
  const raw = requireString(env, name);
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(value) || value <= 0) {
    throw new ConfigurationError(name, `${name} is "${raw}": set it to a positive whole number`);
  }
  return value;
}

/** An optional variable restricted to a set of values; `undefined` when unset or blank. */
export function optionalOneOf<T extends string>(
  env: Environment,
  name: string,
  allowed: readonly T[],
): T | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  const match = allowed.find((value) => value === raw.toUpperCase());
  if (match === undefined) {
    throw new ConfigurationError(name, `${name} is "${raw}": set it to one of ${allowed.join(", ")}`);
  }
  return match;
}
