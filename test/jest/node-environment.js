// jest's node environment without the warning every worker printed on Node ≥ 25: "ExperimentalWarning: localStorage is
// not available because --localstorage-file was not provided." jest-environment-node 30.2 reads each global of the
// worker while it copies them into a test file's context (to freeze their properties), and Node's `localStorage` and
// `sessionStorage` getters warn when read without that flag, though no test uses them. jest-environment-node 30.4
// (jestjs/jest#16086) leaves the two unread until a test reads them; this does the same for 30.2: while the base
// class copies the globals they are plain undefined values on the worker's global, and the context then gets a getter
// that reads Node's own on each use (then with Node's warning, as it should). Remove this file and jest.preset.js's
// `testEnvironment` path when jest moves to 30.4 or later.
const { TestEnvironment } = require("jest-environment-node");

const STORAGE = ["localStorage", "sessionStorage"];

class NodeEnvironment extends TestEnvironment {
  constructor(config, context) {
    const hidden = STORAGE.map((name) => [name, Object.getOwnPropertyDescriptor(globalThis, name)]).filter(([, found]) => found?.get !== undefined && found.configurable);
    for (const [name] of hidden) Object.defineProperty(globalThis, name, { configurable: true, enumerable: false, value: undefined, writable: true });
    try {
      super(config, context);
    } finally {
      for (const [name, descriptor] of hidden) Object.defineProperty(globalThis, name, descriptor);
    }
    // The base class may have read (and kept) the hidden value while it set the context up (Node 26's does): the
    // context gets jestjs/jest#16086's passthrough instead, reading the worker's global on each use.
    const global = this.global;
    for (const [name, descriptor] of hidden) {
      Object.defineProperty(global, name, {
        configurable: true,
        enumerable: descriptor.enumerable,
        get: () => globalThis[name],
        set(value) {
          Object.defineProperty(global, name, { configurable: true, enumerable: descriptor.enumerable, value, writable: true });
        },
      });
    }
  }
}

module.exports = NodeEnvironment;
