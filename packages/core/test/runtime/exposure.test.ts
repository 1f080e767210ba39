import { os } from "@orpc/server";
import { describe, expect, it } from "vitest";
import { agentMeta, createCapabilityRegistry, type ExposureSurface } from "../../src/index.js";
import { build, counted, dana, errorOf, meta } from "./pipeline-harness.js";

const ALL_SURFACES: ExposureSurface[] = ["direct", "aiSdk", "mcp", "workflow", "test"];

describe("invoke and describe: exposure (SI-1)", () => {
  it("SI-1: a procedure without meta.agent is excluded, listed in inspect, and invoke answers CAPABILITY_NOT_FOUND", async () => {
    let called = 0;
    const plain = os.handler(() => {
      called++;
      return "plain";
    });
    const { runtime, registry, ofType } = build({ defs: { admin: { wipe: plain }, orders: { get: counted().procedure } } });

    expect(registry.ids()).toEqual(["orders.get"]);
    expect(registry.inspect().excluded).toEqual([{ path: "admin.wipe", reason: "no-agent-meta" }]);
    for (const surface of ALL_SURFACES) {
      const result = await runtime.invoke("admin.wipe", {}, { actor: dana, context: {}, surface });
      expect(errorOf(result).code).toBe("CAPABILITY_NOT_FOUND");
      expect((await runtime.describe(surface, { actor: dana, context: {} })).map((d) => d.id)).not.toContain("admin.wipe");
    }
    expect(called).toBe(0);
    expect(ofType("capability.denied").map((e) => e.data.reason)).toEqual(ALL_SURFACES.map(() => "unknown"));
  });

  it("SI-1: an absent expose key and an explicit false both deny in invoke and hide from describe", async () => {
    const absent = counted({ expose: { direct: true } });
    const falsy = counted({ expose: { direct: true, aiSdk: false } });
    const open = counted({ expose: { direct: true, aiSdk: true } });
    const { runtime, ofType } = build({ defs: { absent: absent.procedure, falsy: falsy.procedure, open: open.procedure } });

    for (const id of ["absent", "falsy"]) {
      const result = await runtime.invoke(id, undefined, { actor: dana, context: {}, surface: "aiSdk" });
      expect(errorOf(result).code).toBe("CAPABILITY_NOT_FOUND");
    }
    expect(absent.calls.count + falsy.calls.count).toBe(0);
    expect(ofType("capability.denied").map((e) => [e.capabilityId, e.data.reason])).toEqual([
      ["absent", "not-exposed"],
      ["falsy", "not-exposed"],
    ]);
    expect((await runtime.describe("aiSdk", { actor: dana, context: {} })).map((d) => d.id)).toEqual(["open"]);

    // The same capabilities are fine where they are exposed: the denial above is about the surface.
    expect((await runtime.invoke("absent", undefined, { actor: dana, context: {}, surface: "direct" })).status).toBe("completed");
    expect((await runtime.invoke("open", undefined, { actor: dana, context: {}, surface: "aiSdk" })).status).toBe("completed");
  });

  it("SI-1: the default surface is direct, so an aiSdk-only capability is not reachable without naming a surface", async () => {
    const only = counted({ expose: { aiSdk: true } });
    const { runtime } = build({ defs: { only: only.procedure } });
    expect(errorOf(await runtime.invoke("only", undefined, { actor: dana, context: {} })).code).toBe("CAPABILITY_NOT_FOUND");
    expect(only.calls.count).toBe(0);
  });

  it("SI-1: expose {} is listed as unexposed and unreachable on every surface, in invoke and describe", async () => {
    const nowhere = counted({ expose: {} });
    const { runtime, registry, ofType } = build({ defs: { nowhere: nowhere.procedure } });
    expect(registry.inspect().unexposed).toEqual(["nowhere"]);

    for (const surface of ALL_SURFACES) {
      const result = await runtime.invoke("nowhere", undefined, { actor: dana, context: {}, surface });
      expect(errorOf(result).code).toBe("CAPABILITY_NOT_FOUND");
      expect(await runtime.describe(surface, { actor: dana, context: {} })).toEqual([]);
      expect(await runtime.describe(surface, { actor: dana, context: {}, scope: { ids: ["nowhere"] } })).toEqual([]);
    }
    expect(nowhere.calls.count).toBe(0);
    expect(ofType("capability.denied").map((e) => e.data.reason)).toEqual(ALL_SURFACES.map(() => "not-exposed"));
  });

  it("SI-1 (§15 item 1): truthy non-boolean expose values fail the registry build instead of exposing", () => {
    for (const value of [1, "true", {}, []]) {
      const procedure = os.meta(agentMeta({ ...meta(), expose: { mcp: value as never } })).handler(() => "x");
      expect(() => createCapabilityRegistry({ leaky: procedure })).toThrow(/leaky/);
    }
  });
});
