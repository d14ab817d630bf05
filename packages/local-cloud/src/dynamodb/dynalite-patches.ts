/**
 * The local cloud's fixes of dynalite (dynalite-fidelity.cjs, dynalite-parse-cache.cjs: plain CommonJS, shared with
 * the worker that runs dynalite in its own thread), typed, for code that runs dynalite itself: the local cloud's
 * in-process placement, the simulation, tests. Each takes the caller's `require`, so the dynalite modules patched are
 * the ones the caller loads.
 */
import type { Server } from "node:http";

/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS shared with the worker */
const fidelity = require("./dynalite-fidelity.cjs") as {
  installAllOld(requireFn: NodeJS.Require): void;
  installDynaliteFidelity(requireFn: NodeJS.Require): { attach(server: Server): void };
};
const parseCache = require("./dynalite-parse-cache.cjs") as {
  installParseCache(requireFn: NodeJS.Require): { hits: number; misses: number };
};
/* eslint-enable @typescript-eslint/no-require-imports */

/** Transactions, ALL_OLD on a failed condition and TTL settings; `attach` each server made afterwards. */
export function installDynaliteFidelity(requireFn: NodeJS.Require): { attach(server: Server): void } {
  return fidelity.installDynaliteFidelity(requireFn);
}

/** Only the ALL_OLD fix (an item returned with ConditionalCheckFailedException), for dynalite's actions called directly. */
export function installAllOld(requireFn: NodeJS.Require): void {
  fidelity.installAllOld(requireFn);
}

/** dynalite's expression parsers, memoized: the same expression text is parsed once. Returns live hit/miss counts. */
export function installParseCache(requireFn: NodeJS.Require): { hits: number; misses: number } {
  return parseCache.installParseCache(requireFn);
}
