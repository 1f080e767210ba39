import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const script = fileURLToPath(new URL("../check-examples.mjs", import.meta.url));
const trees: string[] = [];

/** Runs the checker as CI does: a child process, exit code and output. */
function check(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [script, ...args], { encoding: "utf8", cwd: tmpdir() }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === "number" ? error.code : null) : 0, stdout, stderr });
    });
  });
}

const manifest = (name: string) =>
  JSON.stringify({ name, type: "module", exports: { ".": { "@orpc-agent/source": "./src/index.ts", import: "./dist/index.js" } } });

const SHAPES = [
  "/**",
  " * The area of a square.",
  " *",
  " * @example",
  ' * import { area } from "@fx/shapes";',
  " * area(2); // 4",
  " */",
  "export function area(side: number): number {",
  "  return side * side;",
  "}",
  "",
  "/**",
  " * @example Fenced, with prose and a shell block",
  " * Prose around the fences is not compiled.",
  " * ```sh",
  " * echo not typescript",
  " * ```",
  " * ```ts",
  ' * import { twice } from "./helpers.js";',
  " * declare const side: number;",
  " * twice(side);",
  " * ```",
  " */",
  "export const fenced = 1;",
  "",
].join("\n");

/**
 * Two packages: one example per kind (bare block; fenced block with a relative import, a `declare` line and a
 * shell fence beside it; a sibling package imported by name), and comment-like text inside a string.
 */
const CLEAN: Record<string, string> = {
  "package.json": JSON.stringify({ name: "fx", type: "module" }),
  "packages/shapes/package.json": manifest("@fx/shapes"),
  "packages/shapes/src/index.ts": SHAPES,
  "packages/shapes/src/helpers.ts": "export const twice = (n: number): number => 2 * n;\n",
  "packages/labels/package.json": manifest("@fx/labels"),
  "packages/labels/src/index.ts": [
    "/**",
    " * @example",
    ' * import { area } from "@fx/shapes";',
    ' * import { label } from "@fx/labels";',
    " * label(area(3));",
    " * @returns The number as text.",
    " */",
    "export function label(n: number): string {",
    "  return `${n}`;",
    "}",
    'export const text = "/** @example area(\\"not code\\") */";',
    "",
  ].join("\n"),
};
const CLEAN_COUNT = 3;

function tree(overrides: Record<string, string> = {}): string {
  const root = mkdtempSync(path.join(tmpdir(), "check-examples-"));
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
describe("check-examples", { timeout: 90_000 }, () => {
  it("passes compiling examples, and leaves no scratch folder behind", async () => {
    const root = tree();
    const result = await check(root);
    expect(result.stderr).toBe("");
    expect(result.stdout).toMatch(new RegExp(`^check:examples: ok \\(${CLEAN_COUNT} examples in 2 files, [\\d.]+s\\)\\n$`));
    expect(result.code).toBe(0);
    for (const dir of [".examples-check", "packages/shapes/.examples-check", "packages/labels/.examples-check"]) expect(existsSync(path.join(root, dir))).toBe(false);
  });

  it("fails on an example that does not compile, naming the source file, the line and the example's tag line", async () => {
    const root = tree({ "packages/shapes/src/index.ts": SHAPES.replace("area(2); // 4", 'area("two");') });
    const result = await check(root);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(`check:examples: 1 problem(s) in ${CLEAN_COUNT} examples`);
    expect(result.stderr).toMatch(/packages\/shapes\/src\/index\.ts:6 \(example at line 4\) TS2345 Argument of type 'string' is not assignable/);
  });

  it("fails on a name the example neither imports nor declares, and maps a fenced line to its source line", async () => {
    const root = tree({ "packages/shapes/src/index.ts": SHAPES.replace(" * declare const side: number;\n", " *\n") });
    const result = await check(root);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/packages\/shapes\/src\/index\.ts:21 \(example at line 13\) TS2304 Cannot find name 'side'/);
  });

  it("fails on an `@word` after whitespace in an example, which TypeScript's JSDoc parser reads as a new tag", async () => {
    const source = SHAPES.replace("area(2); // 4", "area(2); // @declare-like marker, `@inline` code is fine");
    const result = await check(tree({ "packages/shapes/src/index.ts": source }));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("1 problem(s)");
    expect(result.stderr).toContain('packages/shapes/src/index.ts:6 "@declare-like" after whitespace starts a new JSDoc tag');
  });

  it("fails on an example code fence that is never closed", async () => {
    const root = tree({ "packages/shapes/src/index.ts": "/**\n * @example\n * ```ts\n * const a = 1;\n */\nexport {};\n" });
    const result = await check(root);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("packages/shapes/src/index.ts:3 the @example code fence is never closed");
  });

  it("--keep leaves the generated modules and the tsconfig that lists them", async () => {
    const root = tree();
    const result = await check(root, "--keep");
    expect(result.code).toBe(0);
    expect(existsSync(path.join(root, ".examples-check/tsconfig.json"))).toBe(true);
    expect(existsSync(path.join(root, "packages/shapes/.examples-check/index.L5.ts"))).toBe(true);
  });

  it("exits 2 when the root has no packages folder", async () => {
    const root = mkdtempSync(path.join(tmpdir(), "check-examples-empty-"));
    trees.push(root);
    const result = await check(root);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("check:examples: no packages/ under");
  });

  it("passes on this repository", async () => {
    const result = await check();
    expect(result.stderr).toBe("");
    expect(result.stdout).toMatch(/^check:examples: ok \(\d+ examples in \d+ files, [\d.]+s\)\n$/);
    expect(result.code).toBe(0);
  });
});
