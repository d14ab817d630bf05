#!/usr/bin/env node
"use strict";
// Launcher of the effectively-once CLI. In the repository it runs src/run.ts through tsx's CommonJS register API (in
// this process, so stdin, signals and exit codes behave as in a plain Node program, no build step); in the installed
// package, which ships compiled JavaScript only, it runs dist/src/run.js, with the project's own tsx registered when
// it has one: soak, bench and verify load the team's stack.ts and profile.ts.
const fs = require("node:fs");
const path = require("node:path");

const source = path.join(__dirname, "..", "src", "run.ts");
if (fs.existsSync(source)) {
  require("tsx/cjs/api").register();
  require(source);
} else {
  let loader;
  try {
    loader = require.resolve("tsx/cjs/api", { paths: [process.cwd()] });
  } catch {
    loader = undefined; // no tsx in the project: a stack.ts or profile.ts cannot load, and the command says which file
  }
  if (loader) require(loader).register();
  require(path.join(__dirname, "..", "dist", "src", "run.js"));
}
