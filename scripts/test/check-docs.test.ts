import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const script = fileURLToPath(new URL("../check-docs.mjs", import.meta.url));
const trees: string[] = [];

/** Runs the checker as `pnpm docs:build` does: a child process, exit code and output. */
function check(root?: string, ...flags: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const args = root === undefined ? [script, ...flags] : [script, root, ...flags];
  return new Promise((resolve) => {
    execFile(process.execPath, args, { encoding: "utf8", cwd: tmpdir() }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === "number" ? error.code : null) : 0, stdout, stderr });
    });
  });
}

const fence = (code: string, lang = "ts") => ["```" + lang, code, "```"].join("\n");

const EXPORTS_TABLE = [
  "<!-- names: exports:@orpc-agent/core -->",
  "| Export | Kind | What it is |",
  "|---|---|---|",
  "| `createThing` | function | makes a thing |",
  "| `Thing` | type | a thing |",
  "| `VERSION` | constant | the version |",
].join("\n");

const CODES_SOURCE = [
  "const G = \"The operation failed.\";",
  "export const ERROR_CODE_DEFAULTS = Object.freeze({",
  '  NOT_FOUND: { stage: "discovery", retryable: false, exposeToModel: true, message: "Not found." },',
  '  BROKEN: { stage: "execution", retryable: true, exposeToModel: false, message: G },',
  "});",
].join("\n");

const CODES_BLOCK = [
  "<!-- generated: error-codes -->",
  "| Code | Default stage | Retryable | Shown to models | Default public message |",
  "|---|---|---|---|---|",
  "| `NOT_FOUND` | `discovery` | no | yes | Not found. |",
  "| `BROKEN` | `execution` | yes | no | The operation failed. |",
  "<!-- /generated -->",
].join("\n");

const SI_BLOCK = [
  "<!-- generated: si-tests -->",
  "| Invariant | Test files (test names tagged `SI-n:`) |",
  "|---|---|",
  "| [SI-1](#si-1) | [packages/core/test/thing.test.ts](repo:packages/core/test/thing.test.ts) |",
  "<!-- /generated -->",
].join("\n");

/**
 * A repository with a fake `@orpc-agent/core` (sources only, resolved through the `@orpc-agent/source` condition),
 * an error-code table source, one SI-tagged test, and a docs site whose pages link to each other by page and anchor,
 * with a snippet importing the package.
 */
const CLEAN: Record<string, string> = {
  "package.json": JSON.stringify({ name: "tree", type: "module" }),
  "packages/core/package.json": JSON.stringify({
    name: "@orpc-agent/core",
    type: "module",
    exports: { ".": { "@orpc-agent/source": "./src/index.ts" }, "./package.json": "./package.json" },
  }),
  "packages/core/src/index.ts": [
    "export type Thing = { size: number };",
    "export function createThing(size: number): Thing { return { size }; }",
    'export const VERSION = "1";',
  ].join("\n"),
  "packages/core/src/errors/codes.ts": CODES_SOURCE,
  "packages/core/test/thing.test.ts": 'it("SI-1: a thing has a size", () => {});\n',
  "docs/package.json": JSON.stringify({ name: "docs", type: "module" }),
  "docs/README.md": "# Not a page\n\n[ignored](./nowhere.md)\n",
  "docs/index.md": [
    "---",
    "layout: home",
    "---",
    "",
    "# Home",
    "",
    "Start with [the guide](./guide/start.md), its [setup section](./guide/start.md#set-up-creatething-size), or",
    "[the second step](/guide/start#step-1). The [reference](./reference/) lists exports.",
    "Install with `npx -y pnpm@10.34.9 install`.",
  ].join("\n"),
  "docs/guide/start.md": [
    "# Start",
    "",
    "## Set up `createThing(size)`",
    "",
    "Jump to [security](#security-si-1) or back [home](../index.md). The test is [here](repo:packages/core/test/thing.test.ts).",
    "",
    "## Step",
    "",
    "## Step",
    "",
    "## Security: SI-1 {#security-si-1}",
    "",
    "Links inside code are not links: `[x](./missing.md)`.",
    "",
    fence('import { createThing, type Thing } from "@orpc-agent/core";\n\nexport const thing: Thing = createThing(2);'),
    "",
    fence("[not](./checked.md)", "md"),
  ].join("\n"),
  "docs/reference/index.md": ["# Reference", "", EXPORTS_TABLE, "", "## Errors", "", CODES_BLOCK, "", "## SI-1 A thing has a size {#si-1}", "", SI_BLOCK, ""].join("\n"),
};

function tree(overrides: Record<string, string | null> = {}): string {
  const root = mkdtempSync(path.join(tmpdir(), "check-docs-"));
  trees.push(root);
  for (const [file, content] of Object.entries({ ...CLEAN, ...overrides })) {
    if (content === null) continue;
    const full = path.join(root, file);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, content);
  }
  return root;
}

afterAll(() => {
  for (const root of trees) rmSync(root, { recursive: true, force: true });
});

const GUIDE = CLEAN["docs/guide/start.md"]!;

// Each case spawns Node and loads TypeScript; the real repository compiles every package's sources.
describe("check-docs", { timeout: 60_000 }, () => {
  it("passes a site whose links, anchors (VitePress slugs, duplicates, custom ids), snippets, tables and blocks agree with the code", async () => {
    const result = await check(tree());
    expect(result.stderr).toBe("");
    expect(result.stdout.trim()).toBe("check:docs: ok (3 pages, 9 links, 1 snippets, 2 generated blocks, 1 name tables, 1 entry points, 1 pnpm commands)");
    expect(result.code).toBe(0);
  });

  it("fails on a link to a page that does not exist, naming file and line", async () => {
    const result = await check(tree({ "docs/guide/start.md": GUIDE.replace("back [home](../index.md)", "back [home](../home.md)") }));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("docs/guide/start.md:5 link ../home.md: no page docs/home.md");
  });

  it("fails on an anchor that no heading of the target page produces", async () => {
    const index = CLEAN["docs/index.md"]!.replace("#set-up-creatething-size", "#setup");
    const result = await check(tree({ "docs/index.md": index }));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("docs/index.md:7 link ./guide/start.md#setup: no heading with anchor #setup in docs/guide/start.md");
  });

  it("fails on a repo: link to a file the repository does not have", async () => {
    const result = await check(tree({ "packages/core/test/thing.test.ts": null }));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("docs/guide/start.md:5 link to repo:packages/core/test/thing.test.ts: no such file in the repository");
  });

  it("fails on a code sample that imports an export the package no longer has", async () => {
    const guide = GUIDE.replace("import { createThing, type Thing }", "import { createThing, makeThing, type Thing }");
    const result = await check(tree({ "docs/guide/start.md": guide }));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/docs\/guide\/start\.md snippet #1 \(line 15\): line 16 TS2305 Module '"@orpc-agent\/core"' has no exported member 'makeThing'/);
  });

  it("fails when an exports table misses an export, lists a removed one, or gives the wrong kind", async () => {
    const index = [
      "export type Thing = { size: number };",
      "export function buildThing(size: number): Thing { return { size }; }",
      "export const VERSION = () => \"1\";",
    ].join("\n");
    const result = await check(tree({ "packages/core/src/index.ts": index, "docs/guide/start.md": GUIDE.replace(/```ts[\s\S]*?```/, "") }));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("the public entry @orpc-agent/core has buildThing, which no table under <!-- names: exports:@orpc-agent/core --> lists");
    expect(result.stderr).toContain("createThing is not in the public entry @orpc-agent/core (removed or renamed?)");
    expect(result.stderr).toContain('VERSION is a function, the table says "constant"');
  });

  it("fails when an entry point has no exports table at all", async () => {
    const reference = CLEAN["docs/reference/index.md"]!.replace(EXPORTS_TABLE, "");
    const result = await check(tree({ "docs/reference/index.md": reference }));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("docs: no exports table for @orpc-agent/core");
  });

  it("fails when a generated block differs from its source, and --write brings it back in line", async () => {
    const root = tree({ "packages/core/src/errors/codes.ts": CODES_SOURCE.replace('message: "Not found."', 'message: "Nothing here."') });
    const stale = await check(root);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toMatch(/docs\/reference\/index\.md:\d+ generated block "error-codes" differs from packages\/core\/src\/errors\/codes\.ts/);

    const written = await check(root, "--write");
    expect(written.stdout).toContain("updated generated blocks in docs/reference/index.md");
    expect(written.code).toBe(0);
    expect(readFileSync(path.join(root, "docs/reference/index.md"), "utf8")).toContain("| `NOT_FOUND` | `discovery` | no | yes | Nothing here. |");
    expect((await check(root)).code).toBe(0);
  });

  it("fails when the SI test index no longer matches the tagged tests", async () => {
    const result = await check(tree({ "packages/core/test/other.test.ts": 'it("SI-2: another invariant", () => {});\n' }));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('generated block "si-tests" differs from packages');
  });

  it("fails when a source with a generator exists but no page carries its block", async () => {
    const reference = CLEAN["docs/reference/index.md"]!.replace(CODES_BLOCK, "");
    const result = await check(tree({ "docs/reference/index.md": reference }));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('docs: no page has the generated block "error-codes"');
  });

  it("with --built, fails when the site was not built", async () => {
    const result = await check(tree(), "--built");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("docs/.vitepress/dist does not exist");
  });

  it("exits 2 when the root has no docs/index.md, or on an unknown flag", async () => {
    const root = mkdtempSync(path.join(tmpdir(), "check-docs-empty-"));
    trees.push(root);
    const missing = await check(root);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("check:docs: no docs/index.md under");
    expect((await check(tree(), "--fast")).code).toBe(2);
  });

  it("passes on this repository", async () => {
    const result = await check();
    expect(result.stderr).toBe("");
    expect(result.stdout).toMatch(/^check:docs: ok \(\d+ pages, \d+ links, \d+ snippets, 5 generated blocks, \d+ name tables, \d+ entry points, \d+ pnpm commands\)\n$/);
    expect(result.code).toBe(0);
  });
});
