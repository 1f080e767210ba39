import { describe, expect, it } from "vitest";
import { resolveExport } from "../../src/load/resolve-export.js";

// Duck-typed stand-ins: resolution never calls them.
function registry() {
  return { inspect: () => ({}), ids: () => [], capabilities: () => [] };
}
function governance(reg: object) {
  return { registry: reg, policies: [], manifest: [] };
}
function runtime(gov: { registry: object } | undefined, reg = gov?.registry) {
  return { invoke: () => undefined, registry: reg, ...(gov !== undefined ? { governance: gov } : {}) };
}

describe("resolveExport with --export (cli.md §5.3)", () => {
  it("a missing export is refused, listing the exports", () => {
    expect(resolveExport({ a: 1, b: 2 }, "registry", "app.ts")).toEqual({ ok: false, message: 'export "registry" not found in app.ts (exports: a, b)' });
  });

  it("a function is refused and never called", () => {
    let called = false;
    const result = resolveExport({ makeApp: () => (called = true) }, "makeApp", "app.ts");
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toContain("is a function");
    expect(called).toBe(false);
  });

  it("a Promise is refused, not awaited", () => {
    const result = resolveExport({ later: Promise.resolve(registry()) }, "later", "app.ts");
    expect(!result.ok && result.message).toContain("is a Promise");
  });

  it("any other non-matching value is refused", () => {
    const result = resolveExport({ config: { port: 3000 } }, "config", "app.ts");
    expect(!result.ok && result.message).toContain("is not a capability registry, governance or runtime");
  });

  it("reads the named export, and a bare registry names the governed export over it", () => {
    const reg = registry();
    const gov = governance(reg);
    const namespace = { registry: reg, governance: gov, runtime: runtime(gov) };
    expect(resolveExport(namespace, "registry", "app.ts")).toMatchObject({ ok: true, entrySource: "registry", runtimeAvailableAs: "governance" });
    expect(resolveExport(namespace, "runtime", "app.ts")).toMatchObject({ ok: true, entrySource: "runtime", exportName: "runtime" });
    expect(resolveExport(namespace, "runtime", "app.ts")).not.toHaveProperty("runtimeAvailableAs");
  });

  it("a registry with no governance over it sets no runtimeAvailableAs", () => {
    expect(resolveExport({ reg: registry(), other: governance(registry()) }, "reg", "app.ts")).not.toHaveProperty("runtimeAvailableAs");
  });
});

describe("resolveExport without --export (cli.md §5.3)", () => {
  it("no match: names the entry and the exports checked, skipping functions", () => {
    expect(resolveExport({ config: {}, start: () => undefined }, undefined, "app.ts")).toEqual({
      ok: false,
      message: "no capability registry exported from app.ts (exports checked: config; functions skipped, never called: start)",
    });
  });

  it("governance > runtime > registry over one registry", () => {
    const reg = registry();
    const gov = governance(reg);
    expect(resolveExport({ a: reg, b: runtime(gov), c: gov }, undefined, "app.ts")).toMatchObject({ ok: true, exportName: "c", entrySource: "governance" });
  });

  it("a runtime beats its own registry", () => {
    const reg = registry();
    expect(resolveExport({ registry: reg, runtime: runtime(governance(reg)) }, undefined, "app.ts")).toMatchObject({
      ok: true,
      exportName: "runtime",
      entrySource: "runtime",
    });
  });

  it("a runtime that does not report its governance is runtime-unreported", () => {
    expect(resolveExport({ runtime: runtime(undefined, registry()) }, undefined, "app.ts")).toMatchObject({ ok: true, entrySource: "runtime-unreported" });
  });

  it("matches over different registries are ambiguous, listing them", () => {
    const result = resolveExport({ billing: registry(), support: governance(registry()) }, undefined, "app.ts");
    expect(!result.ok && result.message).toBe(
      "app.ts exports capabilities from 2 different registries: billing (registry), support (governance). Choose one with --export <name>.",
    );
  });

  it("top-rank values carrying different governance objects over one registry are ambiguous", () => {
    const reg = registry();
    const result = resolveExport({ strict: governance(reg), lenient: governance(reg) }, undefined, "app.ts");
    expect(!result.ok && result.message).toContain("different governance objects");
  });

  it("the same object exported twice is not ambiguous", () => {
    const reg = registry();
    expect(resolveExport({ default: reg, registry: reg }, undefined, "app.ts")).toMatchObject({ ok: true, entrySource: "registry" });
  });
});
