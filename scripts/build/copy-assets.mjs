// Copies the files tsc does not emit (worker scripts, JSON read from disk) into dist/, at the same relative paths,
// so the compiled package finds them where the sources do.
import { copyFileSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";

const ROOTS = ["src", "functions", "local", "tools", "statemachines"];
const ASSET = /\.(mjs|cjs|json)$/;
let copied = 0;
function walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (ASSET.test(name)) {
      mkdirSync(dirname(join("dist", path)), { recursive: true });
      copyFileSync(path, join("dist", path));
      copied += 1;
    }
  }
}
for (const root of ROOTS) walk(root);
console.log(`build: copied ${copied} asset files into dist/`);
