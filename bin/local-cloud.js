#!/usr/bin/env node
"use strict";
// Launcher for `npm start` (scripts/start.ts), in this process like packages/ops/bin/pipeline-ops.js. Under `tsx <file>` a parent
// process relays Ctrl-C to the script and SIGKILLs it when it does not acknowledge within ~30 ms, which a busy local
// cloud's event loop may not: its clean stop (state file, temporary function folders) was cut short. tsx's
// CommonJS register API compiles the TypeScript on load, so signals reach the script directly.
const path = require("node:path");
const { register } = require("tsx/cjs/api");

register();
require(path.join(__dirname, "..", "scripts", "start.ts"));
