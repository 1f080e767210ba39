import { describe, expect, it } from "vitest";
import { renderHeadline } from "../../src/render/headline.js";
import { entry, policy, snapshot } from "../helpers/snapshots.js";

describe("renderHeadline (cli.md §8.1)", () => {
  it("states declared gates and that runtime policies were not observed", () => {
    expect(renderHeadline(snapshot([entry("a"), entry("b", { expose: [] })], { unexposed: ["b"] }))).toBe(
      "2 capabilities · 1 exposed · declared gates: 0 approval · runtime policies not observed · 1 unexposed",
    );
  });

  it("counts approvals and distinguishes none, one and several runtime policies", () => {
    const caps = [entry("a", { approval: { required: true } }), entry("b", { approval: { required: false } })];
    expect(renderHeadline(snapshot(caps, { runtime: { policies: [] } }))).toBe(
      "2 capabilities · 2 exposed · declared gates: 1 approval · no runtime policies",
    );
    expect(renderHeadline(snapshot(caps, { runtime: { policies: [policy("p")] }, excluded: ["x", "y"] }))).toBe(
      "2 capabilities · 2 exposed · declared gates: 1 approval · 1 runtime policy · 2 excluded",
    );
    expect(renderHeadline(snapshot([entry("a")], { runtime: { policies: [policy("p"), policy("q")] } }))).toBe(
      "1 capability · 1 exposed · declared gates: 0 approval · 2 runtime policies",
    );
  });
});
