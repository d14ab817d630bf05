#!/usr/bin/env node
"use strict";
// Launcher for the operator CLI. In the repository it runs src/main.ts through tsx's CommonJS register API (in this
// process, so stdin prompts, signals and exit codes behave as in a plain Node program, no build step); in the
// installed package, which ships compiled JavaScript only, it runs dist/src/main.js.
const fs = require("node:fs");
const path = require("node:path");

const source = path.join(__dirname, "..", "src", "main.ts");
if (fs.existsSync(source)) {
  require("tsx/cjs/api").register();
  require(source);
} else {
  require(path.join(__dirname, "..", "dist", "src", "main.js"));
}
