import { describe, expect, it } from "vitest";
import { renderChanges } from "../../src/render/changes.js";
import { renderGithub } from "../../src/render/github.js";
import { renderJson } from "../../src/render/json.js";
import { renderMarkdown } from "../../src/render/markdown.js";
import type { Change } from "../../src/drift/types.js";

const changes: Change[] = [
  { kind: "neutral", id: "orders.get", field: "description", message: "description changed" },
  { kind: "widening", id: "orders.refund", field: "expose", message: "now exposed on mcp" },
  { kind: "narrowing", id: "(runtime)", field: "runtime.policies", message: "runtime policy added: a|b" },
];

describe("renderChanges (cli.md §8.3)", () => {
  it("prints exactly 'No capability drift.' when clean", () => {
    expect(renderChanges([], { color: false })).toBe("No capability drift.\n");
  });

  it("groups by kind under WIDENING / NARROWING / NEUTRAL labels with aligned rows", () => {
    const text = renderChanges(changes, { color: false });
    expect(text).toBe(
      [
        "Capability drift — 3 changes, 1 widening",
        "",
        "WIDENING — the agent gained reach, or a control weakened",
        "  orders.refund  expose            now exposed on mcp",
        "",
        "NARROWING — reach reduced, or a control added",
        "  (runtime)      runtime.policies  runtime policy added: a|b",
        "",
        "NEUTRAL — changed, neither wider nor narrower (still review it)",
        "  orders.get     description       description changed",
        "",
      ].join("\n"),
    );
  });

  it("min prints the drift headline and the non-zero counts only", () => {
    expect(renderChanges(changes.slice(1), { color: false }, "min")).toBe("Capability drift — 2 changes, 1 widening\nwidening 1 · narrowing 1\n");
    expect(renderChanges(changes.slice(0, 1), { color: false }, "min")).toBe("Capability drift — 1 change\nneutral 1\n");
  });

  it("colours widening red and narrowing cyan without changing the text", () => {
    const colored = renderChanges(changes, { color: true });
    expect(colored).toContain("\u001b[31mWIDENING");
    expect(colored).toContain("\u001b[36mNARROWING");
    expect(colored.replace(/\u001b\[\d+m/g, "")).toBe(renderChanges(changes, { color: false }));
  });
});

describe("renderMarkdown (cli.md §8.4)", () => {
  it("a bold line when clean", () => {
    expect(renderMarkdown([])).toBe("**No capability drift.**\n");
  });

  it("a bold count line and one table grouped by kind, with | escaped", () => {
    expect(renderMarkdown(changes)).toBe(
      [
        "**Capability drift — 3 changes, 1 widening**",
        "",
        "| | Capability | Field | Change |",
        "|---|---|---|---|",
        "| 🔴 widening | orders.refund | expose | now exposed on mcp |",
        "| 🔵 narrowing | (runtime) | runtime.policies | runtime policy added: a\\|b |",
        "| ⚪ neutral | orders.get | description | description changed |",
        "",
      ].join("\n"),
    );
  });
});

describe("renderGithub (cli.md §8.4)", () => {
  it("one annotation per change: error/warning/notice for widening/narrowing/neutral", () => {
    expect(renderGithub(changes).split("\n")).toEqual([
      "::notice title=neutral: orders.get (description)::orders.get — description changed",
      "::error title=widening: orders.refund (expose)::orders.refund — now exposed on mcp",
      "::warning title=narrowing: (runtime) (runtime.policies)::(runtime) — runtime policy added: a|b",
      "",
    ]);
  });

  it("turns newlines into spaces and :: into :, and prints nothing when clean", () => {
    expect(renderGithub([{ kind: "widening", id: "a::b", field: "f", message: "line one\nline::two" }])).toBe(
      "::error title=widening: a:b (f)::a:b — line one line:two\n",
    );
    expect(renderGithub([])).toBe("");
  });
});

describe("renderJson (cli.md §8.4)", () => {
  it("prints { failOn, counts, changes } pretty-printed with a trailing newline", () => {
    const text = renderJson(changes, "widening");
    expect(text.endsWith("}\n")).toBe(true);
    expect(JSON.parse(text)).toEqual({ failOn: "widening", counts: { widening: 1, narrowing: 1, neutral: 1 }, changes });
    expect(text).toBe(`${JSON.stringify(JSON.parse(text), null, 2)}\n`);
  });

  it("clean: empty changes and zero counts", () => {
    expect(JSON.parse(renderJson([], "any"))).toEqual({ failOn: "any", counts: { widening: 0, narrowing: 0, neutral: 0 }, changes: [] });
  });
});
