/**
 * Summarises a V8 CPU profile (`.cpuprofile`, as written by `node --cpu-prof` or returned by the inspector's
 * `Profiler.stop`): self time per function, per file and per module, so a reader sees where the time goes.
 */

/** The part of the V8 profile format read here. */
export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number; children?: number[] }[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

export interface SelfTime {
  readonly name: string;
  readonly ms: number;
  /** Share of the sampled time, 0..1. */
  readonly share: number;
}

export interface ProfileSummary {
  /** Wall time covered by the profile. */
  readonly totalMs: number;
  /** Time the thread was busy (not idle). */
  readonly busyMs: number;
  readonly byModule: readonly SelfTime[];
  /**
   * Self time charged to the nearest library or project frame up the stack: a socket write made by dynalite's
   * HTTP answer counts as dynalite, not as "node (internal)".
   */
  readonly byOwner: readonly SelfTime[];
  readonly byFile: readonly SelfTime[];
  readonly byFunction: readonly SelfTime[];
}

/** Packages that are dynalite's own storage stack: their time is the DynamoDB emulator's. */
const DYNALITE_PARTS = ["dynalite", "level", "memory-level", "abstract-level", "level-transcoder", "module-error", "lazy", "big.js", "lock", "async", "buffer-crc32", "functional-red-black-tree", "maybe-combine-errors", "level-supports"];

/** Module groups for project paths (matched on the path inside the repository). */
const PROJECT_GROUPS: readonly [RegExp, string][] = [
  [/\/local-cloud\/(?:dist\/)?src\/stepfunctions\//, "interpreter (local-cloud stepfunctions)"],
  [/\/local-cloud\/(?:dist\/)?src\/pipes\//, "pipes (local-cloud pipes)"],
  [/\/local-cloud\/(?:dist\/)?src\/lambda\//, "lambda runner (local-cloud lambda)"],
  [/\/local-cloud\/(?:dist\/)?src\/dynamodb\//, "dynamodb wiring (local-cloud dynamodb)"],
  [/\/local-cloud\/(?:dist\/)?src\/sqs\//, "sqs wiring (local-cloud sqs)"],
  [/\/local-cloud\/(?:dist\/)?src\/faults\//, "faults (local-cloud faults)"],
  [/\/local-cloud\/(?:dist\/)?src\/cloud\//, "cloud wiring (local-cloud cloud)"],
  [/\/cli\/(?:dist\/)?src\/load\//, "load driver (cli load)"],
  [/\/packages\/[^/]+\//, "project (packages)"],
];

/** The module a frame's script belongs to, e.g. "aws-sdk", "dynalite", "jsonata", "node (internal)". */
export function moduleOf(url: string, functionName = ""): string {
  if (url === "") {
    if (functionName === "(garbage collector)") return "garbage collector";
    if (functionName === "(idle)") return "(idle)";
    if (functionName === "(program)") return "(program: V8/native)";
    return "(native)";
  }
  if (url.startsWith("node:") || !url.includes("/")) return "node (internal)";
  const path = decodeURIComponent(url.replace(/^file:\/\//, ""));
  const nm = path.lastIndexOf("/node_modules/");
  if (nm >= 0) {
    const rest = path.slice(nm + "/node_modules/".length).split("/");
    const pkg = rest[0].startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0];
    if (pkg.startsWith("@aws-sdk/") || pkg.startsWith("@smithy/") || pkg.startsWith("@aws-crypto/") || pkg === "fast-xml-parser" || pkg === "bowser") return "aws-sdk";
    if (pkg.startsWith("@aws-lambda-powertools/") || pkg === "@aws-lambda-powertools") return "powertools";
    if (DYNALITE_PARTS.includes(pkg)) return "dynalite";
    if (pkg === "fauxqs" || pkg === "fastify" || pkg.startsWith("@fastify/") || pkg === "light-my-request" || pkg === "find-my-way" || pkg === "avvio" || pkg === "pino") return "fauxqs";
    if (pkg === "tsx" || pkg === "esbuild" || pkg === "get-tsconfig") return "tsx (loader)";
    return pkg;
  }
  for (const [pattern, group] of PROJECT_GROUPS) if (pattern.test(path)) return group;
  if (/\/functions\//.test(path) || /\/index\.js$/.test(path)) return "function bundle";
  return "other";
}

function shortFile(url: string): string {
  const path = decodeURIComponent(url.replace(/^file:\/\//, ""));
  const nm = path.lastIndexOf("/node_modules/");
  if (nm >= 0) return path.slice(nm + "/node_modules/".length);
  const cwd = process.cwd();
  return path.startsWith(cwd) ? path.slice(cwd.length + 1) : path;
}

/** Self time per profile node, from the sample stream (falls back to hit counts × mean interval). */
function selfTimes(profile: CpuProfile): Map<number, number> {
  const out = new Map<number, number>();
  const { samples, timeDeltas } = profile;
  if (samples && timeDeltas && samples.length === timeDeltas.length && samples.length > 0) {
    // timeDeltas[i] is the gap before sample i; the time until the next sample belongs to sample i.
    for (let i = 0; i < samples.length; i++) {
      const ms = (timeDeltas[i + 1] ?? 0) / 1000;
      out.set(samples[i], (out.get(samples[i]) ?? 0) + ms);
    }
    return out;
  }
  const hits = profile.nodes.reduce((sum, n) => sum + (n.hitCount ?? 0), 0);
  const interval = hits > 0 ? (profile.endTime - profile.startTime) / 1000 / hits : 0;
  for (const node of profile.nodes) out.set(node.id, (node.hitCount ?? 0) * interval);
  return out;
}

function ranked(map: Map<string, number>, total: number, top: number): SelfTime[] {
  return [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, ms]) => ({ name, ms: Math.round(ms), share: total > 0 ? ms / total : 0 }));
}

/** Modules that are plumbing rather than an owner of work: time in them is charged to their caller. */
const PLUMBING = new Set(["node (internal)", "(native)", "(program: V8/native)", "other"]);

/** The owner module of each node: its own module, or the nearest non-plumbing module among its callers. */
function owners(profile: CpuProfile): Map<number, string> {
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const cache = new Map<number, string>();
  const ownerOf = (id: number): string => {
    const known = cache.get(id);
    if (known !== undefined) return known;
    const chain: number[] = [];
    let owner = "node (internal)";
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const hit = cache.get(at);
      if (hit !== undefined) {
        owner = hit;
        break;
      }
      chain.push(at);
      const frame = byId.get(at)!.callFrame;
      const module = moduleOf(frame.url, frame.functionName);
      if (!PLUMBING.has(module) && frame.functionName !== "(root)") {
        owner = module;
        break;
      }
    }
    for (const visited of chain) cache.set(visited, owner);
    return owner;
  };
  return new Map(profile.nodes.map((n) => [n.id, ownerOf(n.id)]));
}

/** Top self-time entries by module, file and function; idle time is left out of the shares. */
export function summarizeProfile(profile: CpuProfile, options: { top?: number } = {}): ProfileSummary {
  const top = options.top ?? 12;
  const times = selfTimes(profile);
  const byModule = new Map<string, number>();
  const byOwner = new Map<string, number>();
  const ownerOf = owners(profile);
  const byFile = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let busy = 0;
  for (const node of profile.nodes) {
    const ms = times.get(node.id) ?? 0;
    if (ms === 0) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const module = moduleOf(url, functionName);
    if (module === "(idle)") continue;
    busy += ms;
    byModule.set(module, (byModule.get(module) ?? 0) + ms);
    const owner = ownerOf.get(node.id) ?? module;
    byOwner.set(owner, (byOwner.get(owner) ?? 0) + ms);
    const file = url ? shortFile(url) : module;
    byFile.set(file, (byFile.get(file) ?? 0) + ms);
    const fn = `${functionName || "(anonymous)"} ${url ? `${shortFile(url)}:${lineNumber + 1}` : ""}`.trim();
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + ms);
  }
  return {
    totalMs: Math.round((profile.endTime - profile.startTime) / 1000),
    busyMs: Math.round(busy),
    byModule: ranked(byModule, busy, top),
    byOwner: ranked(byOwner, busy, top),
    byFile: ranked(byFile, busy, top),
    byFunction: ranked(byFunction, busy, top),
  };
}
