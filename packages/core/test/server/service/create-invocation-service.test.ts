import { describe, expect, it } from "vitest";
import { createInMemoryInvocationJournal, createInvocationService, type InvocationJournal } from "../../../src/server/index.js";
import { createShopApp, dana } from "../remote-fixture.js";

const journal = createInMemoryInvocationJournal();

describe("createInvocationService options", () => {
  it("S2: rejects malformed options with TypeErrors that say what to pass", () => {
    const bad: unknown[] = [
      undefined,
      { namespace: "shop", revision: "r1" },
      { journal: { begin() {} }, namespace: "shop", revision: "r1" },
      { journal, namespace: "", revision: "r1" },
      { journal, namespace: "shop" },
      { journal, namespace: "shop", revision: "r1", leaseMs: 0 },
      { journal, namespace: "shop", revision: "r1", maxStoredOutputBytes: Number.POSITIVE_INFINITY },
      { journal, namespace: "shop", revision: "r1", toolNaming: { cli: () => "x" } },
      { journal, namespace: "shop", revision: "r1", toolNaming: { aiSdk: "x" } },
      { journal, namespace: "shop", revision: "r1", onEvent: 1 },
    ];
    for (const options of bad) expect(() => createInvocationService(options as never)).toThrow(TypeError);
    expect(() => createInvocationService({ journal, namespace: "shop", revision: "r1" })).not.toThrow();
  });

  it("reports the journal's durability and namespace", () => {
    const durable: InvocationJournal = Object.assign(Object.create(journal), { durable: true });
    expect(createInvocationService({ journal, namespace: "shop", revision: "r1" })).toMatchObject({ namespace: "shop", durable: false });
    expect(createInvocationService({ journal: durable, namespace: "shop", revision: "r1" }).durable).toBe(true);
  });

  it("rejects programmer errors in calls before touching the journal", async () => {
    const app = createShopApp();
    const rt = app.makeRuntime();
    const o = { actor: dana, context: {}, surface: "aiSdk" as const, invocationId: "inv-1" };
    await expect(app.service.invoke({} as never, "notes.read", {}, o)).rejects.toBeInstanceOf(TypeError);
    await expect(app.service.invoke(rt, "", {}, o)).rejects.toBeInstanceOf(TypeError);
    await expect(app.service.invoke(rt, "notes.read", {}, { ...o, invocationId: "has space" })).rejects.toBeInstanceOf(TypeError);
    await expect(app.service.invoke(rt, "notes.read", {}, { ...o, invocationId: "x".repeat(129) })).rejects.toBeInstanceOf(TypeError);
    await expect(app.service.invoke(rt, "notes.read", {}, { ...o, surface: "cli" as never })).rejects.toBeInstanceOf(TypeError);
    await expect(app.service.invoke(rt, "notes.read", {}, { ...o, correlationId: "line\nbreak" })).rejects.toBeInstanceOf(TypeError);
    await expect(app.service.invoke(rt, "notes.read", {}, { ...o, signal: {} as never })).rejects.toBeInstanceOf(TypeError);
    await expect(app.service.resume(rt, "", o)).rejects.toBeInstanceOf(TypeError);
    await expect(app.service.reconcile("bad id", { actor: dana, surface: "aiSdk" })).rejects.toBeInstanceOf(TypeError);
    await expect(app.service.describe(rt, { actor: dana, context: { tenant: "t1" }, surface: "direct" as never })).rejects.toBeInstanceOf(TypeError);
    expect(await app.service.list()).toEqual([]);
    expect(app.effects.total()).toBe(0);
  });
});
