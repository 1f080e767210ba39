import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const script = fileURLToPath(new URL("../check-readme-snippets.mjs", import.meta.url));
const trees: string[] = [];

/** Runs the checker as CI does: a child process, exit code and output. */
function check(root?: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const args = root === undefined ? [script] : [script, root];
  return new Promise((resolve) => {
    execFile(process.execPath, args, { encoding: "utf8", cwd: tmpdir() }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === "number" ? error.code : null) : 0, stdout, stderr });
    });
  });
}

const fence = (code: string, lang = "ts") => ["```" + lang, code, "```"].join("\n");

/**
 * A repository with a root README, a package README whose snippet imports the package's own dependency,
 * and an example README whose snippet is compiled in another folder to reach a relative module.
 */
const CLEAN: Record<string, string> = {
  "package.json": JSON.stringify({ name: "tree", type: "module" }),
  "README.md": [
    "# Tree",
    "",
    fence("const total: number = [1, 2, 3].reduce((sum, n) => sum + n, 0);\nexport { total };"),
    "",
    "A shell block is not checked:",
    "",
    fence("echo not typescript", "sh"),
    "",
    "<!-- snippet: skip -->",
    fence("createThing({ size?: number })"),
    "",
    "<!-- snippet: prelude",
    "declare const runtime: { invoke(id: string): Promise<string> };",
    "-->",
    fence('const status: string = await runtime.invoke("orders.get");\nexport { status };', "typescript"),
  ].join("\n"),
  "packages/widget/package.json": JSON.stringify({ name: "widget", type: "module" }),
  "packages/widget/node_modules/shapes/package.json": JSON.stringify({ name: "shapes", types: "index.d.ts" }),
  "packages/widget/node_modules/shapes/index.d.ts": "export declare function area(side: number): number;\n",
  "packages/widget/README.md": ["# widget", "", fence('import { area } from "shapes";\nexport const a: number = area(2);')].join("\n"),
  "examples/shop/src/lib.ts": "export const greet = (name: string): string => `hi ${name}`;\n",
  "examples/shop/README.md": [
    "# shop",
    "",
    "<!-- snippet: in src -->",
    "",
    fence('import { greet } from "./lib.js";\nexport const line: string = greet("Ada");'),
  ].join("\n"),
};
const CLEAN_CHECKED = 4;

function tree(overrides: Record<string, string> = {}): string {
  const root = mkdtempSync(path.join(tmpdir(), "check-readme-"));
  trees.push(root);
  for (const [file, content] of Object.entries({ ...CLEAN, ...overrides })) {
    const full = path.join(root, file);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, content);
  }
  return root;
}

afterAll(() => {
  for (const root of trees) rmSync(root, { recursive: true, force: true });
});

// Each case spawns Node and loads TypeScript; the real repository compiles every package's sources.
describe("check-readme-snippets", { timeout: 60_000 }, () => {
  it("passes compiling snippets, counting only the checked ones (not skipped or non-ts blocks)", async () => {
    const result = await check(tree());
    expect(result.stderr).toBe("");
    expect(result.stdout.trim()).toBe(`check:readme: ok (${CLEAN_CHECKED} snippets)`);
    expect(result.code).toBe(0);
  });

  it("fails on a snippet that does not compile, naming file, snippet index, README line and diagnostic", async () => {
    const readme = ["# widget", "", fence('import { area } from "shapes";\nexport const a: number = area(2);'), "", fence('const n: number = "two";\nexport { n };')];
    const result = await check(tree({ "packages/widget/README.md": readme.join("\n") }));
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(`check:readme: 1 problem(s) in ${CLEAN_CHECKED + 1} snippets`);
    // The second block's fence opens on line 8; the bad assignment is line 9.
    expect(result.stderr).toMatch(/packages\/widget\/README\.md snippet #2 \(line 8\): line 9 TS2322 Type 'string' is not assignable to type 'number'/);
  });

  it("resolves a snippet's imports from its README's folder: another folder lacks the package's dependency", async () => {
    const result = await check(tree({ "examples/shop/README.md": fence('import { area } from "shapes";\nexport const a = area(1);') }));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/examples\/shop\/README\.md snippet #1 \(line 1\): line 2 TS2307 Cannot find module 'shapes'/);
  });

  it("maps a diagnostic inside a prelude to its line in the README's comment", async () => {
    const readme = ["# shop", "<!-- snippet: prelude", "declare const count: number;", 'const wrong: boolean = "yes";', "-->", fence("export const next = count + 1;")];
    const result = await check(tree({ "examples/shop/README.md": readme.join("\n") }));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/examples\/shop\/README\.md snippet #1 \(line 6\): line 4 TS2322/);
  });

  it("fails on an unknown directive, a directive with no code fence after it, and an `in` folder that does not exist", async () => {
    const readme = [
      "# shop",
      "<!-- snippet: ignore -->",
      fence("export const a = 1;"),
      "<!-- snippet: skip -->",
      "Some prose in between.",
      fence("export const b = 2;"),
      "<!-- snippet: in ../../nowhere -->",
      fence("export const c = 3;"),
    ];
    const result = await check(tree({ "examples/shop/README.md": readme.join("\n") }));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('examples/shop/README.md:2 unknown or repeated snippet directive "ignore"');
    expect(result.stderr).toContain("examples/shop/README.md:6 snippet directive is not followed by a code fence");
    expect(result.stderr).toContain('examples/shop/README.md snippet #3 (line 12): "in ../../nowhere" is not a folder inside the repository');
  });

  it("fails on a code fence that is never closed", async () => {
    const result = await check(tree({ "README.md": "# Tree\n\n```ts\nexport const a = 1;\n" }));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("README.md:3 code fence is never closed");
  });

  // Fake `ai` majors installed as the workspace installs them (`ai`, `ai-v6`, `ai-v7`), and a fake React.
  const MAJORS: Record<string, string> = {
    ...Object.fromEntries(
      (["ai", "ai-v6", "ai-v7"] as const).flatMap((name, i) => [
        [`packages/widget/node_modules/${name}/package.json`, JSON.stringify({ name, types: "index.d.ts" })],
        [`packages/widget/node_modules/${name}/index.d.ts`, `export declare const major: ${i + 5};\n`],
      ]),
    ),
    "packages/widget/node_modules/react/package.json": JSON.stringify({ name: "react", exports: { ".": { types: "./index.d.ts" }, "./jsx-runtime": { types: "./jsx-runtime.d.ts" } } }),
    "packages/widget/node_modules/react/index.d.ts": "export {};\n",
    "packages/widget/node_modules/react/jsx-runtime.d.ts":
      "export namespace JSX { interface Element {} interface IntrinsicElements { p: { children?: unknown } } }\nexport declare function jsx(...args: unknown[]): JSX.Element;\nexport declare function jsxs(...args: unknown[]): JSX.Element;\n",
  };

  it("`ai 6 7` compiles a snippet once per listed major, the workspace's `ai` renamed to that major's alias; a break names the major", async () => {
    const ok = ["# widget", "<!-- snippet: ai 6 7 -->", fence('import { major } from "ai";\nexport const m: 6 | 7 = major;'), fence('import { major } from "ai";\nexport const m: 5 = major;')];
    const passed = await check(tree({ ...MAJORS, "packages/widget/README.md": ok.join("\n") }));
    expect(passed.stderr).toBe("");
    expect(passed.stdout.trim()).toBe(`check:readme: ok (${CLEAN_CHECKED + 1} snippets)`);

    const broken = ["# widget", "<!-- snippet: ai 6 7 -->", fence('import { major } from "ai";\nexport const m: 6 = major;')];
    const failed = await check(tree({ ...MAJORS, "packages/widget/README.md": broken.join("\n") }));
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain("1 problem(s)");
    expect(failed.stderr).toMatch(/packages\/widget\/README\.md snippet #1 \(ai 7\) \(line 3\): line 5 TS2322 Type '7' is not assignable to type '6'/);
  });

  it("fails on an `ai` directive naming a major it does not know", async () => {
    const readme = ["# widget", "<!-- snippet: ai 6 8 -->", fence("export const a = 1;")];
    const result = await check(tree({ ...MAJORS, "packages/widget/README.md": readme.join("\n") }));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('packages/widget/README.md:2 snippet directive "ai 6 8" names an `ai` major other than 5, 6, 7');
  });

  it("compiles a tsx block as JSX against the React types it resolves, and fails on a broken one", async () => {
    const ok = ["# widget", fence("export const el = <p>{1}</p>;", "tsx")];
    const passed = await check(tree({ ...MAJORS, "packages/widget/README.md": ok.join("\n") }));
    expect(passed.stderr).toBe("");
    expect(passed.code).toBe(0);
    const broken = ["# widget", fence("export const el = <span />;", "tsx")];
    const failed = await check(tree({ ...MAJORS, "packages/widget/README.md": broken.join("\n") }));
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/packages\/widget\/README\.md snippet #1 \(line 2\): line 3 TS2339 Property 'span' does not exist on type 'JSX.IntrinsicElements'/);
  });

  it("exits 2 when the root has no README.md", async () => {
    const root = mkdtempSync(path.join(tmpdir(), "check-readme-empty-"));
    trees.push(root);
    const result = await check(root);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("check:readme: no README.md under");
  });

  it("passes on this repository", async () => {
    const result = await check();
    expect(result.stderr).toBe("");
    expect(result.stdout).toMatch(/^check:readme: ok \(\d+ snippets\)\n$/);
    expect(result.code).toBe(0);
  });
});
