import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkDocumentedCommands, documentedCommands } from "../documented-commands.mjs";

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

/** A workspace with a root script, a scoped example with its own scripts, and one page of docs. */
function workspace(page: string, readme = "# shop\n"): { root: string; files: string[] } {
  const root = mkdtempSync(path.join(tmpdir(), "documented-commands-"));
  roots.push(root);
  const files: Record<string, string> = {
    "package.json": JSON.stringify({ name: "tree", scripts: { demo: "x", test: "vitest" } }),
    "examples/shop/package.json": JSON.stringify({ name: "@tree/example-shop", scripts: { mcp: "x", demo: "x" } }),
    "examples/shop/README.md": readme,
    "docs/page.md": page,
  };
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), content);
  }
  return { root, files: [path.join(root, "docs/page.md"), path.join(root, "examples/shop/README.md")] };
}

describe("documented pnpm commands", () => {
  it("finds commands in shell fences and in inline code that wraps across lines, not in ts fences", () => {
    const text = ["Run `pnpm --filter", "shop mcp` to serve.", "", "```sh", "npx -y pnpm@10.34.9 demo # the demo", "```", "", "```ts", 'const s = "pnpm nope";', "```"].join("\n");
    expect(documentedCommands(text)).toEqual([
      { line: 5, text: "npx -y pnpm@10.34.9 demo # the demo" },
      { line: 1, text: "pnpm --filter shop mcp" },
    ]);
  });

  it("passes commands that reach a script: root scripts, a filter by full or unscoped name, pnpm's own commands, a README's own scripts", () => {
    const { root, files } = workspace(
      ["```sh", "npx -y pnpm@10.34.9 install --frozen-lockfile && npx -y pnpm@10.34.9 demo", "pnpm test", "pnpm --filter @tree/example-shop mcp", "pnpm -F example-shop run demo", "```"].join("\n"),
      "From this folder: `pnpm mcp`.\n",
    );
    expect(checkDocumentedCommands({ root, files })).toEqual({ problems: [], checked: 6 });
  });

  it("fails a filter that matches no project (pnpm itself would exit 0), naming file and line", () => {
    const { root, files } = workspace("Serve it with `pnpm --filter customer-support mcp`.\n");
    expect(checkDocumentedCommands({ root, files }).problems).toEqual([
      "docs/page.md:1 `pnpm --filter customer-support mcp`: --filter customer-support matches no workspace project",
    ]);
  });

  it("fails a script that the targeted project does not have", () => {
    const { root, files } = workspace(["```sh", "pnpm --filter example-shop start", "pnpm mcp", "```"].join("\n"));
    expect(checkDocumentedCommands({ root, files }).problems).toEqual([
      'docs/page.md:2 `pnpm --filter example-shop start`: no script "start" in @tree/example-shop',
      'docs/page.md:3 `pnpm mcp`: no script "mcp" in the root package.json',
    ]);
  });
});
