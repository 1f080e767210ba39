import { describe, expect, it } from "vitest";
import { countChanges, failingChanges, groupByKind } from "../../src/drift/gate.js";
import { driftNotices } from "../../src/drift/notices.js";
import type { Change } from "../../src/drift/types.js";
import { entry, policy, snapshot } from "../helpers/snapshots.js";

const changes: Change[] = [
  { kind: "neutral", id: "a", field: "tags", message: "tags" },
  { kind: "widening", id: "b", field: "expose", message: "now exposed on mcp" },
  { kind: "narrowing", id: "c", field: "risk", message: "risk raised" },
  { kind: "widening", id: "d", field: "idempotent", message: "idempotent" },
];

describe("gate (cli.md §7.4)", () => {
  it("--fail-on any fails on every change; --fail-on widening only on widening", () => {
    expect(failingChanges(changes, "any")).toHaveLength(4);
    expect(failingChanges(changes, "widening").map((c) => c.id)).toEqual(["b", "d"]);
    expect(failingChanges(changes.filter((c) => c.kind !== "widening"), "widening")).toEqual([]);
  });

  it("counts each kind and groups by kind keeping generation order", () => {
    expect(countChanges(changes)).toEqual({ widening: 2, narrowing: 1, neutral: 1 });
    expect(groupByKind(changes).map(([kind, group]) => [kind, group.map((c) => c.id)])).toEqual([
      ["widening", ["b", "d"]],
      ["narrowing", ["c"]],
      ["neutral", ["a"]],
    ]);
  });
});

describe("driftNotices (cli.md §7.4 a, b)", () => {
  const command = "orpc-agent snapshot --entry src/agent.ts";

  it("(a) a baseline without runtime while the app has runtime policies", () => {
    const notices = driftNotices(snapshot([entry("a")]), snapshot([entry("a")], { runtime: { policies: [policy("p"), policy("q")] } }), "caps.json", command);
    expect(notices).toEqual([
      "orpc-agent: caps.json predates runtime-policy recording; 2 runtime policies are configured and NOT covered by this gate yet. Run: orpc-agent snapshot --entry src/agent.ts",
    ]);
  });

  it("(b) a baseline without candidates while the app records them", () => {
    const before = snapshot([], { runtime: { policies: [{ name: "p", phases: ["invocation"] }] } });
    const after = snapshot([], { runtime: { policies: [policy("p")] } });
    expect(driftNotices(before, after, "caps.json", command)).toEqual([
      "orpc-agent: caps.json predates runtime-policy scope recording; 1 runtime policy is configured and NOT covered by this gate yet. Run: orpc-agent snapshot --entry src/agent.ts",
    ]);
  });

  it("none when the baseline records as much as the app", () => {
    const same = snapshot([], { runtime: { policies: [policy("p")] } });
    expect(driftNotices(same, same, "caps.json", command)).toEqual([]);
    expect(driftNotices(snapshot([]), snapshot([]), "caps.json", command)).toEqual([]);
  });
});
