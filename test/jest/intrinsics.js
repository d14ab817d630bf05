// jest runs each test file in a vm context, where every read of a global (`Object`, `Symbol`, `JSON`, ...) passes
// through Node 20's context interceptors: ~12x slower than in a plain process. The simulation's hot code reads them
// in its inner loops (JSONata's evaluator reads `Symbol.for` and `Object.prototype` twice per node), so it ran 2-5x
// slower under jest than under tsx. This transform binds the intrinsics once per module to the same objects, as
// module-scope variables: nothing else changes (the same realm, the same promises, the same microtask order). Names
// jest may fake (Date, timers, performance) stay global, and a module that declares a name of its own keeps it.
const swc = require("@swc/jest");

const INTRINSICS = ["Object", "Array", "Symbol", "JSON", "Math", "Number", "String", "Boolean", "Promise", "Reflect", "Map", "Set", "WeakMap", "WeakSet", "Error", "TypeError", "RangeError", "RegExp", "Uint8Array", "ArrayBuffer", "Buffer", "parseInt", "parseFloat", "isNaN"];
/** Bump when the output changes: part of jest's cache key. 3: swc's source map beside the code, not inline. */
const VERSION = "3";

const NAMES = INTRINSICS.join("|");
/** What makes a name the module's own: a declaration (`var Map`, `function Map`), a destructuring (`const { Map } =`,
 * the names up to its first `}`/`]`) or an assignment (`Map = `). One scan of the module for all names: a scan per
 * name cost 0.4-0.6 s per 450 modules on a fresh cache. */
const OWN = new RegExp(`\\b(?:var|let|const|function|class)\\s+(${NAMES})\\b|\\b(?:var|let|const)\\s*[{[]([^}\\]]*)|(?<![.\\w$])(${NAMES})\\s*=(?!=)`, "g");
const NAME = new RegExp(`\\b(?:${NAMES})\\b`, "g");

function ownNames(code) {
  const own = new Set();
  for (const [, declared, destructured, assigned] of code.matchAll(OWN)) {
    if (destructured === undefined) own.add(declared ?? assigned);
    else for (const [name] of destructured.matchAll(NAME)) own.add(name);
  }
  return own;
}

/** `var Object = globalThis.Object, ...;` for the intrinsics `code` never declares, on the first line's end. */
function bindIntrinsics(code) {
  const own = ownNames(code);
  const names = INTRINSICS.filter((name) => !own.has(name));
  if (names.length === 0) return code;
  const bind = `var ${names.map((name) => `${name} = globalThis.${name}`).join(", ")};`;
  // After a "use strict" prologue (it must stay the first statement), on its line: line numbers do not move.
  const prologue = /^\s*(?:"use strict"|'use strict');?/.exec(code);
  return prologue ? `${prologue[0].replace(/;?$/, ";")} ${bind}${code.slice(prologue[0].length)}` : `${bind} ${code}`;
}

module.exports = {
  createTransformer(options) {
    // The source map beside the code (jest writes it to its cache and maps stack frames through it), not inline: an
    // inline map is base64 in the code, which jest would search for, decode and parse again, and which the scan for
    // own names would read too.
    const inner = swc.createTransformer({ sourceMaps: true, ...options });
    const fromNodeModules = (path) => /[\\/]node_modules[\\/]/.test(path);
    return {
      canInstrument: inner.canInstrument,
      process(source, path, transformOptions) {
        if (fromNodeModules(path)) return { code: bindIntrinsics(source) };
        const out = inner.process(source, path, transformOptions);
        return typeof out === "string" ? bindIntrinsics(out) : { ...out, code: bindIntrinsics(out.code) };
      },
      getCacheKey(source, path, transformOptions) {
        return `${inner.getCacheKey(source, path, transformOptions)}:intrinsics-${VERSION}:${fromNodeModules(path) ? "raw" : "swc"}`;
      },
    };
  },
};
