// jest's runtime, with the pure helper libraries of jest's own machinery loaded once per worker instead of once per
// test file. jest loads jest-circus, expect and jest-snapshot into each test file's vm context ("internal modules"), and
// with them their helpers: semver, source-map, pure-rand, the glob matchers and the rest below, about 22 ms of CPU per
// file, over 250 files a run. jest already loads `chalk` outside the context the same way. These libraries hold no
// state a test sees and never reach the test's own objects; the test's code, the repository's and every dependency a
// test imports still load inside the context, per file, as before.
const Module = require("node:module");
const Runtime = require("jest-runtime").default;

const SHARED = new Set([
  "semver",
  "source-map",
  "pure-rand",
  "picomatch",
  "micromatch",
  "braces",
  "fill-range",
  "to-regex-range",
  "is-number",
  "stack-utils",
  "@babel/code-frame",
  "@babel/helper-validator-identifier",
  "react-is",
  "picocolors",
  "natural-compare",
  "p-limit",
  "co",
  "synckit",
]);

/** `semver/functions/satisfies` → `semver`; `@babel/code-frame` → itself; a relative or absolute path → undefined. */
function packageOf(specifier) {
  if (specifier.startsWith(".") || specifier.startsWith("/")) return undefined;
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

class SharedHelpersRuntime extends Runtime {
  requireInternalModule(from, to) {
    if (to && SHARED.has(packageOf(to))) return Module.createRequire(from)(to);
    return super.requireInternalModule(from, to);
  }
}

module.exports = SharedHelpersRuntime;
