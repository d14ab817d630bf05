#!/usr/bin/env node
"use strict";
// Launcher for the operator CLI (scripts/ops.ts). tsx is a runtime dependency: its CommonJS register API compiles
// the TypeScript on load, in this process, so stdin (confirmation prompts), signals and exit codes behave as in a
// plain Node program and no build step is needed.
const path = require("node:path");
const { register } = require("tsx/cjs/api");

register();
require(path.join(__dirname, "..", "scripts", "ops.ts"));
