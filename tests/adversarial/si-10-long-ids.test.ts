// SI-10: an unknown capability id of any length is answered as unknown, and audit never copies a huge one (issue 22, item 8).
import { describe, expect, it } from "vitest";
import { base, build, dana, errorOf, meta } from "./support/runtime.js";

describe("SI-10: long unknown capability ids", () => {
  it("SI-10: a 100 000-character unknown id answers CAPABILITY_NOT_FOUND and its audit events carry a bounded id", async () => {
    const { runtime, events } = build({ defs: { op: base.meta({ agent: meta() }).handler(() => "ok") } });
    const probe = `op.${"A".repeat(100_000)}`;
    const error = errorOf(await runtime.invoke(probe, {}, { actor: dana, context: {} }));
    expect(error.toJSON()).toEqual(errorOf(await runtime.invoke("nope", {}, { actor: dana, context: {} })).toJSON());
    const mine = events.filter((e) => e.capabilityId !== "nope");
    expect(mine.map((e) => e.type)).toEqual(["capability.requested", "capability.denied"]);
    for (const event of mine) {
      expect(event.capabilityId!.length).toBeLessThanOrEqual(256);
      expect(JSON.stringify(event).length).toBeLessThan(2_000);
    }
    expect(mine[0]!.capabilityId).toContain("100003");
  });

  it("SI-10: an id of exactly 256 characters is still audited verbatim", async () => {
    const { runtime, events } = build({ defs: { op: base.meta({ agent: meta() }).handler(() => "ok") } });
    const id = "x".repeat(256);
    await runtime.invoke(id, {}, { actor: dana, context: {} });
    expect(events.map((e) => e.capabilityId)).toEqual([id, id]);
  });

  it("SI-10: a shortened id can never resolve to a registered capability", async () => {
    // A registry id shaped like the shortened form cannot exist: ".." is an empty segment.
    const { runtime } = build({ defs: { op: base.meta({ agent: meta() }).handler(() => "ok") } });
    const result = await runtime.invoke(`op${"B".repeat(300)}`, {}, { actor: dana, context: {} });
    expect(errorOf(result).code).toBe("CAPABILITY_NOT_FOUND");
  });
});
