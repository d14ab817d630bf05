/**
 * docs/scripts.md lists every npm script of package.json once, and nothing else; each old name it lists runs the
 * script it names, with the caller's options (`npm run -s <new> --`).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(__dirname, "../..");
const ALIAS = /^npm run -s (\S+) --$/;

/** The script names of the page's table rows (first cell `npm test`, `npm start` or `npm run <name>`), by section. */
function scriptsOnPage(markdown: string): { scripts: string[]; aliases: Map<string, string> } {
  const scripts: string[] = [];
  const aliases = new Map<string, string>();
  let oldNames = false;
  for (const line of markdown.split("\n")) {
    if (line.startsWith("## ")) oldNames = /old names/i.test(line);
    const row = /^\| `npm (?:run )?([^`\s]+)` \|(?: `npm run ([^`\s]+)` \|)?/.exec(line);
    if (!row) continue;
    if (oldNames) {
      if (!row[2]) throw new Error(`docs/scripts.md: the old name ${row[1]} names no script it runs`);
      aliases.set(row[1], row[2]);
    } else scripts.push(row[1]);
  }
  return { scripts, aliases };
}

describe("Docs: docs/scripts.md and package.json", () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> };
  const page = scriptsOnPage(readFileSync(join(ROOT, "docs/scripts.md"), "utf8"));
  const scripts = new Map(Object.entries(pkg.scripts));

  it("lists every script once, and nothing package.json does not have", () => {
    const listed = [...page.scripts, ...page.aliases.keys()];
    expect(listed.filter((name, i) => listed.indexOf(name) !== i)).toEqual([]);
    expect([...listed].sort()).toEqual([...scripts.keys()].sort());
  });

  it("lists each old name with the script it runs, and only old names run another script", () => {
    for (const [name, command] of scripts) {
      const target = ALIAS.exec(command)?.[1];
      expect([name, target]).toEqual([name, page.aliases.get(name)]);
      if (target) expect([name, page.scripts.includes(target)]).toEqual([name, true]);
    }
  });
});

describe("Function: scriptsOnPage", () => {
  it("reads the first cell of each table row, old names with what they run", () => {
    const page = "## Test\n\n| Script | What |\n|---|---|\n| `npm test` | x |\n| `npm run lint:paths` | y |\n\n## Old names\n\n| Old | Runs |\n|---|---|\n| `npm run fuzz` | `npm run sim:search` |\n";
    expect(scriptsOnPage(page)).toEqual({ scripts: ["test", "lint:paths"], aliases: new Map([["fuzz", "sim:search"]]) });
  });

  it("refuses an old name without the script it runs", () => {
    expect(() => scriptsOnPage("## Old names\n\n| `npm run fuzz` | soon |\n")).toThrow(/old name fuzz names no script/);
  });
});
