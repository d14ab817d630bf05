#!/usr/bin/env node
"use strict";
// Launcher of the effectively-once CLI. In the repository it runs src/run.ts through tsx's CommonJS register API (in
// this process, so stdin, signals and exit codes behave as in a plain Node program, no build step); in the installed
// package, which ships compiled JavaScript only, it runs dist/src/run.js.
const fs = require("node:fs");
const path = require("node:path");

const source = path.join(__dirname, "..", "src", "run.ts");
if (fs.existsSync(source)) {
  require("tsx/cjs/api").register();
  require(source);
} else {
  require(path.join(__dirname, "..", "dist", "src", "run.js"));
}
