// What a team installs with a published package carries a permissive license: the packages are Apache-2.0, and a
// copyleft runtime dependency (the IAM simulator the tests use is AGPL-3.0-or-later) would bind every team that runs
// them. The walk reads the license field of each package.json in the production tree (dependencies and optional
// dependencies, transitively, resolved as Node resolves them); peers are the team's own framework (cdktf and its
// provider bindings are MPL-2.0) and dev dependencies never reach a team.
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";

const ROOT = join(__dirname, "../..");
/** Permissive licenses (SPDX ids): no obligation beyond keeping the notice. */
const PERMISSIVE = new Set(["MIT", "MIT-0", "Apache-2.0", "BSD-2-Clause", "BSD-3-Clause", "ISC", "0BSD", "BlueOak-1.0.0", "CC0-1.0", "Unlicense"]);

interface Manifest {
  readonly name: string;
  readonly version: string;
  readonly private?: boolean;
  readonly license?: string | { readonly type?: string };
  readonly dependencies?: Record<string, string>;
  readonly optionalDependencies?: Record<string, string>;
}

const read = (file: string): Manifest => JSON.parse(readFileSync(file, "utf8")) as Manifest;

/** The package.json Node would load for `name` required from `from`, or undefined (an optional one not installed). */
function resolveManifest(name: string, from: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const file = join(dir, "node_modules", name, "package.json");
    if (existsSync(file)) return realpathSync(file);
    if (dirname(dir) === dir) return undefined;
  }
}

/** The SPDX expression's alternatives (`(MIT OR Apache-2.0)`); a package may be taken under any of them. */
function licenseOf(manifest: Manifest): string {
  const license = manifest.license;
  return typeof license === "object" ? String(license.type) : String(license);
}
const permissive = (expression: string): boolean => expression.replace(/[()]/g, "").split(/\s+OR\s+/).some((id) => PERMISSIVE.has(id.trim()));

/** Every package (name@version → license) in the production tree of the workspace at `dir`. */
function productionTree(dir: string): Map<string, { license: string; via: string }> {
  const found = new Map<string, { license: string; via: string }>();
  const walk = (file: string, via: string): void => {
    const manifest = read(file);
    const id = `${manifest.name}@${manifest.version}`;
    if (found.has(id)) return;
    found.set(id, { license: licenseOf(manifest), via });
    for (const name of Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies })) {
      const next = resolveManifest(name, dirname(file));
      if (next) walk(next, `${via} > ${manifest.name}`);
      else if (!(name in (manifest.optionalDependencies ?? {}))) throw new Error(`${manifest.name} depends on ${name}, which is not installed`);
    }
  };
  walk(realpathSync(join(dir, "package.json")), "");
  return found;
}

const WORKSPACES = (read(join(ROOT, "package.json")) as unknown as { workspaces: string[] }).workspaces;
const PUBLISHED = WORKSPACES.filter((dir) => !read(join(ROOT, dir, "package.json")).private);

describe("the licenses a team installs with a published package", () => {
  it.each(PUBLISHED)("%s: every production dependency, transitively, is permissive", (dir) => {
    const tree = productionTree(join(ROOT, dir));
    const copyleft = [...tree].filter(([, { license }]) => !permissive(license)).map(([id, { license, via }]) => `${id} (${license}, via ${via.slice(3)})`);
    expect(tree.size).toBeGreaterThan(1);
    expect(copyleft).toEqual([]);
  });

  it("tells a permissive alternative from a copyleft license", () => {
    expect(permissive("(MIT OR GPL-3.0-or-later)")).toBe(true);
    expect(permissive("AGPL-3.0-or-later")).toBe(false);
    expect(permissive("MPL-2.0")).toBe(false);
    expect(permissive("undefined")).toBe(false);
  });
});
