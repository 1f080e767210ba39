import { describe, expect, it } from "vitest";
import { discoverEntries, ENTRY_CANDIDATES } from "../../src/init/discover-entries.js";

describe("discoverEntries (cli.md §8.5 step 1)", () => {
  it("lists the existing candidates in the specified order", () => {
    expect(ENTRY_CANDIDATES).toEqual([
      "src/app.ts", "src/app.tsx", "src/index.ts", "src/server.ts", "src/runtime.ts", "src/capabilities.ts",
      "src/capabilities/index.ts", "src/registry.ts", "src/agent.ts", "app.ts", "index.ts", "dist/app.js", "dist/index.js",
    ]);
    const present = new Set(["/app/dist/index.js", "/app/src/agent.ts", "/app/src/index.ts"]);
    expect(discoverEntries("/app", undefined, (path) => present.has(path))).toEqual(["src/index.ts", "src/agent.ts", "dist/index.js"]);
  });

  it("--entry is the only candidate when given", () => {
    expect(discoverEntries("/app", "lib/agent.mts", () => true)).toEqual(["lib/agent.mts"]);
  });

  it("none found gives an empty list", () => {
    expect(discoverEntries("/app", undefined, () => false)).toEqual([]);
  });
});
