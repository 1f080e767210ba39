import { describe, expect, it } from "vitest";
import { addCheckScript, configByHand, mergeAgentConfig } from "../../src/init/package-json.js";

describe("package.json edits (cli.md §8.5 step 5)", () => {
  it("merges entry and export into orpcAgent, keeping other keys, two-space indent and a trailing newline", () => {
    const before = JSON.stringify({ name: "app", orpcAgent: { entry: "old.ts", snapshot: "caps.json" }, scripts: { test: "vitest" } });
    const after = mergeAgentConfig(before, { entry: "src/agent.ts", export: "governance" });
    expect(after).toBe(
      [
        "{",
        '  "name": "app",',
        '  "orpcAgent": {',
        '    "entry": "src/agent.ts",',
        '    "snapshot": "caps.json",',
        '    "export": "governance"',
        "  },",
        '  "scripts": {',
        '    "test": "vitest"',
        "  }",
        "}",
        "",
      ].join("\n"),
    );
  });

  it("drops a stale export when none was chosen, and creates orpcAgent when absent", () => {
    expect(JSON.parse(mergeAgentConfig(JSON.stringify({ orpcAgent: { entry: "a.ts", export: "old" } }), { entry: "a.ts" })).orpcAgent).toEqual({ entry: "a.ts" });
    expect(mergeAgentConfig(undefined, { entry: "a.ts" })).toBe('{\n  "orpcAgent": {\n    "entry": "a.ts"\n  }\n}\n');
  });

  it("adds the check:capabilities script only when absent", () => {
    const added = addCheckScript(JSON.stringify({ scripts: { test: "vitest" } }), "orpc-agent check");
    expect(added.added).toBe(true);
    expect(JSON.parse(added.text).scripts).toEqual({ test: "vitest", "check:capabilities": "orpc-agent check" });

    const existing = JSON.stringify({ scripts: { "check:capabilities": "custom" } });
    expect(addCheckScript(existing, "orpc-agent check")).toEqual({ text: existing, added: false });
  });

  it("refuses to edit a package.json that is not an object", () => {
    expect(() => mergeAgentConfig("[]", { entry: "a.ts" })).toThrow("not a JSON object");
  });

  it("the by-hand config is valid package.json content", () => {
    expect(JSON.parse(configByHand("src/app.ts"))).toEqual({ orpcAgent: { entry: "src/app.ts" } });
  });
});
