import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const checkScript = fileURLToPath(new URL("../check-citations.mjs", import.meta.url));
const migrateScript = fileURLToPath(new URL("../migrate-citations.mjs", import.meta.url));
const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

const SIGN = "\u00a7";

/** A spec page with the anchor kinds the real pages use: a `{#id}` heading, `id="…"` spans, and a plain heading. */
const CORE_PAGE = [
  "# Core",
  "",
  "## 7. Resume {#core-7}",
  "",
  '| <span id="core-r5"></span>R5 | hash |',
  "",
  "## 6. Invocation {#core-6}",
  "",
  '| <span id="core-stage-9"></span>9 | Execution policies |',
  "",
  "### 6.2 Error mapping {#core-6-2}",
  "",
  "## Plain heading",
  "",
].join("\n");
const ADAPTERS_PAGE = ["# Adapters", "", "### 2.2 Local overload {#adapters-2-2}", "", "## 3. MCP {#adapters-3}", ""].join("\n");
const DISTRIBUTED_PAGE = ["# Distributed", "", "### 5.2 States and rules {#distributed-5-2}", ""].join("\n");
const AMENDMENTS_PAGE = ["# Amendments", "", '- <span id="amendments-core-7-r3"></span>R3', ""].join("\n");

function tree(files: Record<string, string>, withDocs = true): string {
  const root = mkdtempSync(path.join(tmpdir(), "citations-"));
  roots.push(root);
  const all: Record<string, string> = withDocs
    ? {
        "docs/architecture/spec/core.md": CORE_PAGE,
        "docs/architecture/spec/adapters.md": ADAPTERS_PAGE,
        "docs/architecture/spec/distributed.md": DISTRIBUTED_PAGE,
        "docs/architecture/spec/amendments-2026-12.md": AMENDMENTS_PAGE,
        ...files,
      }
    : files;
  for (const [file, text] of Object.entries(all)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  return root;
}

function run(script: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [script, ...args], { encoding: "utf8" }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
    });
  });
}

describe("check-citations", () => {
  it("passes when every comment citation names an existing page and anchor", async () => {
    const root = tree({
      "packages/core/src/a.ts": [
        "// The hash is checked first (docs/architecture/spec/core.md#core-r5).",
        "/** @see docs/architecture/spec/core.md#core-6-2 */",
        "export const a = 1; // docs/architecture/spec/core.md#plain-heading",
        "",
      ].join("\n"),
      "scripts/b.mjs": "// docs/architecture/spec/adapters.md, the whole page\nexport {};\n",
    });
    const result = await run(checkScript, root);
    expect(result).toMatchObject({ code: 0, stdout: "check:citations: ok (4 citation(s) in 2 file(s))\n" });
  });

  it("names file and line of a citation whose anchor or page does not exist", async () => {
    const root = tree({
      "packages/core/src/a.ts": "export const a = 1;\n// See docs/architecture/spec/core.md#core-99.\n// And docs/architecture/spec/nope.md#x.\n",
    });
    const result = await run(checkScript, root);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("check:citations: 2 of 2 citation(s) do not resolve");
    expect(result.stderr).toContain("packages/core/src/a.ts:2 docs/architecture/spec/core.md#core-99: docs/architecture/spec/core.md has no anchor #core-99");
    expect(result.stderr).toContain("packages/core/src/a.ts:3 docs/architecture/spec/nope.md#x: no page docs/architecture/spec/nope.md");
  });

  it("fails on every old form, in code and shell comments, and says which path replaces it", async () => {
    const root = tree({
      "packages/core/src/a.ts": `// core.md ${SIGN}7 R5 and core.md ${SIGN}6.2\nexport const a = 1;\n`,
      "packages/ai-sdk/src/b.ts": `/**\n * Step one (${SIGN}2.2).\n */\nexport const b = 1;\n`,
      "packages/mcp/src/c.ts": `// As amended (amendments 2026-12), expiry fails closed (amendments ${SIGN}7 R3).\nexport {};\n`,
      ".ci/run": `#!/usr/bin/env bash\necho "not a comment # adapters.md ${SIGN}3"\n# The suites (adapters.md ${SIGN}3)\n`,
      "packages/ai-sdk/tsconfig.leg.json": `{\n  // The leg (adapters.md ${SIGN}2.2)\n  "extends": "./tsconfig.json"\n}\n`,
    });
    const result = await run(checkScript, root);
    expect(result.code).toBe(1);
    const lines = result.stderr.split("\n").map((l) => l.trim());
    expect(lines).toContain(`packages/core/src/a.ts:1 "core.md ${SIGN}7 R5" names a spec outside the repository; cite docs/architecture/spec/core.md#core-r5`);
    expect(lines).toContain(`packages/core/src/a.ts:1 "core.md ${SIGN}6.2" names a spec outside the repository; cite docs/architecture/spec/core.md#core-6-2`);
    expect(lines).toContain(`packages/ai-sdk/src/b.ts:2 "${SIGN}2.2" names a spec outside the repository; cite docs/architecture/spec/adapters.md#adapters-2-2`);
    expect(lines).toContain(`packages/mcp/src/c.ts:1 "amendments 2026-12" names a spec outside the repository; cite docs/architecture/spec/amendments-2026-12.md`);
    expect(lines).toContain(`packages/mcp/src/c.ts:1 "amendments ${SIGN}7 R3" names a spec outside the repository; cite docs/architecture/spec/amendments-2026-12.md#amendments-core-7-r3`);
    expect(lines).toContain(`.ci/run:3 "adapters.md ${SIGN}3" names a spec outside the repository; cite docs/architecture/spec/adapters.md#adapters-3`);
    expect(lines).toContain(`packages/ai-sdk/tsconfig.leg.json:2 "adapters.md ${SIGN}2.2" names a spec outside the repository; cite docs/architecture/spec/adapters.md#adapters-2-2`);
    expect(result.stderr).not.toContain(".ci/run:2");
  });

  it("reads a bare section against the spec the comment named last, else the file's package", async () => {
    const root = tree({
      "packages/core/src/server/journal.ts": `// Only a released row is claimable again (${SIGN}5.2).\nexport {};\n`,
      "packages/core/src/x.ts": `// adapters.md ${SIGN}2.2, ${SIGN}3 and later ${SIGN}6.2 (ADR-012 ${SIGN}6, RFC 6750 ${SIGN}2.1)\nexport {};\n`,
    });
    const result = await run(checkScript, root);
    const lines = result.stderr.split("\n").map((l) => l.trim());
    expect(lines).toContain(`packages/core/src/server/journal.ts:1 "${SIGN}5.2" names a spec outside the repository; cite docs/architecture/spec/distributed.md#distributed-5-2`);
    expect(lines).toContain(`packages/core/src/x.ts:1 "${SIGN}3" names a spec outside the repository; cite docs/architecture/spec/adapters.md#adapters-3`);
    expect(lines.some((l) => l.includes(`"${SIGN}6.2"`) && l.endsWith("docs/architecture/spec/adapters.md#adapters-6-2 does not exist either: add the anchor or cite another rule"))).toBe(true);
    expect(result.stderr).not.toContain("ADR-012");
    expect(result.stderr).not.toContain("RFC");
  });

  it("leaves strings alone: a test title citing a section is code, not a comment", async () => {
    const root = tree({
      "packages/cli/test/a.test.ts": `describe("diff ${SIGN}7.1: per capability", () => {});\nconst s = \`core.md ${SIGN}7 // not a comment\`;\n`,
    });
    expect(await run(checkScript, root)).toMatchObject({ code: 0, stdout: "check:citations: ok (0 citation(s) in 0 file(s))\n" });
  });

  it("exits 2 when the root has no docs/architecture", async () => {
    const result = await run(checkScript, tree({ "a.ts": "export {};\n" }, false));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("no docs/architecture");
  });
});

describe("migrate-citations", () => {
  const source = [
    `// Resume hashes first (core.md ${SIGN}7 R5); see ${SIGN}6.2 too.`,
    "export function f(): string {",
    `  return "core.md ${SIGN}7 stays in a string";`,
    "}",
    `/** The overload of adapters.md ${SIGN}2.2, unlike core.md ${SIGN}99. */`,
    `// Only a typed approval covers it (amended ${SIGN}6, stage 9), as in ${SIGN}6.`,
    "",
  ].join("\n");

  it("rewrites comment citations in place, keeps strings and line structure, and leaves unresolvable ones listed", async () => {
    const root = tree({ "packages/core/src/f.ts": source });
    const result = await run(migrateScript, root);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("migrate:citations: 6 found, 5 rewritten in 1 file(s), 1 unresolved\n");
    expect(result.stderr).toContain(`packages/core/src/f.ts:5 "core.md ${SIGN}99" -> docs/architecture/spec/core.md#core-99: no such anchor`);
    const after = readFileSync(path.join(root, "packages/core/src/f.ts"), "utf8");
    expect(after.split("\n")).toEqual([
      "// Resume hashes first (docs/architecture/spec/core.md#core-r5); see docs/architecture/spec/core.md#core-6-2 too.",
      "export function f(): string {",
      `  return "core.md ${SIGN}7 stays in a string";`,
      "}",
      `/** The overload of docs/architecture/spec/adapters.md#adapters-2-2, unlike core.md ${SIGN}99. */`,
      "// Only a typed approval covers it (amended docs/architecture/spec/core.md#core-stage-9), as in docs/architecture/spec/core.md#core-6.",
      "",
    ]);
  });

  it("after a full migration the check passes", async () => {
    const root = tree({ "packages/core/src/f.ts": source.replace(`, unlike core.md ${SIGN}99`, "") });
    expect((await run(migrateScript, root)).stdout).toBe("migrate:citations: 5 found, 5 rewritten in 1 file(s), 0 unresolved\n");
    expect(await run(checkScript, root)).toMatchObject({ code: 0, stdout: "check:citations: ok (5 citation(s) in 1 file(s))\n" });
  });

  it("--dry-run lists each rewrite and writes nothing", async () => {
    const root = tree({ "packages/core/src/f.ts": source });
    const result = await run(migrateScript, root, "--dry-run");
    expect(result.stdout).toContain(`packages/core/src/f.ts:1 core.md ${SIGN}7 R5 -> docs/architecture/spec/core.md#core-r5`);
    expect(result.stdout).toContain("6 found, 5 rewritten in 1 file(s), 1 unresolved (dry run)");
    expect(readFileSync(path.join(root, "packages/core/src/f.ts"), "utf8")).toBe(source);
  });
});
