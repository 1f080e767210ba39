// The README's complete example is the runnable v2 stdio example that test/stdio/stdio.test.ts spawns: the lines
// between the region markers of test/examples/stdio-server.ts, and its imports (with the package's own name instead of
// the source path), must appear verbatim in the README.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
const example = readFileSync(new URL("./examples/stdio-server.ts", import.meta.url), "utf8");

function readmeBlocks(): string[] {
  return [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]!);
}

describe("README example", () => {
  it("shows the stdio example's code verbatim, importing the package by name", () => {
    const start = example.indexOf("// #region readme");
    const end = example.indexOf("// #endregion readme");
    expect(start).toBeGreaterThan(0);
    const region = example.slice(example.indexOf("\n", start) + 1, end);
    const imports = example
      .split("\n")
      .filter((line) => line.startsWith("import "))
      .map((line) => line.replace('"../../src/index.js"', '"@orpc-agent/mcp"'))
      .join("\n");
    expect(region.split("\n").length).toBeGreaterThan(20);
    expect(readmeBlocks()).toContain(`${imports}\n\n${region}`);
  });
});
