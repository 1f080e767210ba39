import { describe, expect, it } from "vitest";
import { InvocationNotResolvableError } from "../../../src/server/index.js";
import { createShopApp, dana, mallory, newInvocationId, type ShopApp } from "../remote-fixture.js";

const context = { tenant: "t1" };
const ops = { id: "u_ops", kind: "user" as const };
const invoke = (app: ShopApp, capabilityId: string, input: unknown, invocationId: string) =>
  app.service.invoke(app.makeRuntime(), capabilityId, input, { actor: dana, context, surface: "aiSdk", invocationId });
const reconcile = (app: ShopApp, invocationId: string, actor = dana, surface: "aiSdk" | "mcp" = "aiSdk") =>
  app.service.reconcile(invocationId, { actor, surface });

describe("service.reconcile (distributed.md §5.5)", () => {
  it("reports every state of the caller's own invocations", async () => {
    const app = createShopApp();
    expect(await reconcile(app, "inv-unseen")).toEqual({ protocol: 1, invocationId: "inv-unseen", state: "absent" });

    const settledId = newInvocationId();
    const settled = await invoke(app, "notes.read", { id: "n" }, settledId);
    expect(await reconcile(app, settledId)).toEqual({ protocol: 1, invocationId: settledId, state: "settled", result: { ...settled, replayed: true } });

    const suspendedId = newInvocationId();
    const suspended = await invoke(app, "orders.gatedRefund", { orderId: "o", cents: 1 }, suspendedId);
    expect(await reconcile(app, suspendedId)).toEqual({ protocol: 1, invocationId: suspendedId, state: "pending", result: { ...suspended, replayed: true } });

    const claimedId = newInvocationId();
    const gate = app.effects.hold();
    const running = invoke(app, "orders.refund", { orderId: "o", cents: 1 }, claimedId);
    await app.effects.entered();
    const claimed = await reconcile(app, claimedId);
    expect(claimed).toMatchObject({ state: "claimed" });
    const leaseExpiresAt = (claimed as { leaseExpiresAt: string }).leaseExpiresAt;
    expect(new Date(leaseExpiresAt).getTime()).toBe(app.clock.now().getTime() + 30_000);
    app.clock.advance(30_000);
    expect(await reconcile(app, claimedId)).toEqual({ protocol: 1, invocationId: claimedId, state: "unknown", reason: "lease-lapsed", since: leaseExpiresAt });
    const record = (await app.service.get(claimedId))!;
    await app.service.resolve(claimedId, { expectedFence: record.fence, by: ops, resolution: { kind: "not-applied" } });
    expect(await reconcile(app, claimedId)).toEqual({ protocol: 1, invocationId: claimedId, state: "pending" });
    gate.release();
    await running;

    const interruptedId = newInvocationId();
    await invoke(app, "orders.stuckWrite", { orderId: "o" }, interruptedId);
    const interrupted = await reconcile(app, interruptedId);
    expect(interrupted).toMatchObject({ state: "unknown", reason: "interrupted" });
    expect(new Date((interrupted as { since: string }).since).toISOString()).toBe((interrupted as { since: string }).since);
  });

  it("S8: another actor's or surface's id answers absent, so other principals' ids look unused", async () => {
    const app = createShopApp();
    const invocationId = newInvocationId();
    await invoke(app, "notes.read", { id: "n" }, invocationId);
    const absent = { protocol: 1, invocationId, state: "absent" };
    expect(await reconcile(app, invocationId, mallory)).toEqual(absent);
    expect(await reconcile(app, invocationId, { id: dana.id, kind: "service" })).toEqual(absent);
    expect(await reconcile(app, invocationId, dana, "mcp")).toEqual(absent);
    expect((await reconcile(app, invocationId)).state).toBe("settled");
  });
});

describe("service.resolve: application only (distributed.md §5.5)", () => {
  async function interrupted(app: ShopApp) {
    const invocationId = newInvocationId();
    await invoke(app, "orders.stuckWrite", { orderId: "o" }, invocationId);
    return { invocationId, fence: (await app.service.get(invocationId))!.fence };
  }

  it("refuses a live claim, a settled row and a wrong fence with InvocationNotResolvableError", async () => {
    const app = createShopApp();
    const liveId = newInvocationId();
    const gate = app.effects.hold();
    const running = invoke(app, "orders.refund", { orderId: "o", cents: 1 }, liveId);
    await app.effects.entered();
    await expect(app.service.resolve(liveId, { expectedFence: 1, by: ops, resolution: { kind: "not-applied" } })).rejects.toBeInstanceOf(
      InvocationNotResolvableError,
    );
    gate.release();
    await running;
    await expect(app.service.resolve(liveId, { expectedFence: 1, by: ops, resolution: { kind: "applied" } })).rejects.toThrow(/not resolvable/);
    const { invocationId, fence } = await interrupted(app);
    await expect(app.service.resolve(invocationId, { expectedFence: fence + 1, by: ops, resolution: { kind: "applied" } })).rejects.toBeInstanceOf(
      InvocationNotResolvableError,
    );
    await expect(app.service.resolve("inv-unseen", { expectedFence: 1, by: ops, resolution: { kind: "applied" } })).rejects.toBeInstanceOf(
      InvocationNotResolvableError,
    );
  });

  it("failed resolutions settle EXECUTION_FAILED with the given public message, or the generic error without one", async () => {
    const app = createShopApp();
    const a = await interrupted(app);
    const resolved = await app.service.resolve(a.invocationId, {
      expectedFence: a.fence,
      by: ops,
      note: "payment provider refused",
      resolution: { kind: "failed", publicMessage: "The refund did not go through." },
    });
    expect(resolved).toMatchObject({ state: "settled", resolution: { kind: "failed", by: ops, note: "payment provider refused" } });
    expect(await invoke(app, "orders.stuckWrite", { orderId: "o" }, a.invocationId)).toMatchObject({
      status: "failed",
      replayed: true,
      error: { code: "EXECUTION_FAILED", message: "The refund did not go through.", retryable: false },
    });
    const b = await interrupted(app);
    await app.service.resolve(b.invocationId, { expectedFence: b.fence, by: ops, resolution: { kind: "failed" } });
    expect(await invoke(app, "orders.stuckWrite", { orderId: "o" }, b.invocationId)).toMatchObject({
      status: "failed",
      error: { code: "INTERNAL_ERROR", message: "The operation failed.", retryable: false },
    });
    expect(app.events.filter((e) => e.type === "resolved").map((e) => e.data)).toEqual([
      { kind: "failed", fence: a.fence },
      { kind: "failed", fence: b.fence },
    ]);
  });

  it("not-applied authorizes exactly one re-run of the same id, with the same idempotency key", async () => {
    const app = createShopApp();
    const { invocationId, fence } = await interrupted(app);
    await app.service.resolve(invocationId, { expectedFence: fence, by: ops, resolution: { kind: "not-applied" } });
    const rerun = await invoke(app, "orders.stuckWrite", { orderId: "o" }, invocationId);
    expect(rerun).toMatchObject({ status: "outcome-unknown", reason: "interrupted" }); // it ignores its signal again
    expect((await app.service.get(invocationId))!.fence).toBe(fence + 1);
    expect(app.effects.count("orders.stuckWrite")).toBe(2);
    const keys = app.effects.keys.map((k) => k.idempotencyKey);
    expect(keys[0]).toBe(keys[1]);
    expect(await invoke(app, "orders.stuckWrite", { orderId: "o" }, invocationId)).toMatchObject({ status: "outcome-unknown" });
    expect(app.effects.count("orders.stuckWrite")).toBe(2);
  });

  it("validates its arguments with TypeErrors", async () => {
    const app = createShopApp();
    const { invocationId, fence } = await interrupted(app);
    const bad = [
      { expectedFence: 0, by: ops, resolution: { kind: "applied" } },
      { expectedFence: fence, by: { id: "" }, resolution: { kind: "applied" } },
      { expectedFence: fence, by: ops, resolution: { kind: "maybe" } },
      { expectedFence: fence, by: ops, resolution: { kind: "failed", publicMessage: "" } },
      { expectedFence: fence, by: ops, note: 5, resolution: { kind: "applied" } },
    ];
    for (const args of bad) await expect(app.service.resolve(invocationId, args as never)).rejects.toBeInstanceOf(TypeError);
    expect(await app.service.get(invocationId)).toMatchObject({ state: "unknown" });
  });

  it("list reads the service's namespace through the journal", async () => {
    const app = createShopApp();
    await invoke(app, "notes.read", { id: "1" }, "inv-a");
    await invoke(app, "orders.gatedRefund", { orderId: "o", cents: 1 }, "inv-b");
    expect((await app.service.list()).map((r) => r.invocationId).sort()).toEqual(["inv-a", "inv-b"]);
    expect((await app.service.list({ state: "pending" })).map((r) => r.invocationId)).toEqual(["inv-b"]);
  });
});
