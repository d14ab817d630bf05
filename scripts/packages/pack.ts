// `npm run packages:pack [-- <folder>]`: npm pack of the seven published packages (their prepack builds them) into one
// folder (default tarballs/, which git ignores), then the command that installs them in an app, as the registry would
// resolve them: the pipeline package depends on the contract, the state machine and the function package at its own
// version, so their tarballs are installed beside it.
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { PUBLISHED } from "./published";

const ROOT = resolve(__dirname, "../..");
const out = resolve(process.argv[2] ?? join(ROOT, "tarballs"));
mkdirSync(out, { recursive: true });
const written: string[] = [];
for (const [name, dir] of Object.entries(PUBLISHED)) {
  const started = Date.now();
  process.stdout.write(`packages:pack: ${name} (${dir}) … `);
  const before = new Set(readdirSync(out));
  execFileSync("npm", ["pack", "--silent", "--pack-destination", out], { cwd: join(ROOT, dir), stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, CHECKPOINT_DISABLE: "1" } });
  const tarball = readdirSync(out).find((f) => f.endsWith(".tgz") && !before.has(f)) ?? readdirSync(out).find((f) => f.startsWith(`effectively-once-${name}-`));
  if (!tarball) throw new Error(`npm pack of ${dir} wrote no tarball in ${out}`);
  written.push(join(out, tarball));
  console.log(`${tarball} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}
const at = (name: string) => written.find((f) => f.includes(`effectively-once-${name}-`)) ?? "";
const foundations = ["contract", "statemachines", "functions"].map((n) => at(n)).join(" ");
console.log(
  `\nIn your app (each package's siblings at its own version come from these tarballs, as the registry would give them):\n` +
    `  npm install ${at("pipeline")} ${foundations}\n` +
    `  npm install -D ${at("local-cloud")} ${at("ops")} ${at("cli")}\n` +
    `The operator CLI alone: npm install ${at("ops")} ${at("contract")}`,
);
