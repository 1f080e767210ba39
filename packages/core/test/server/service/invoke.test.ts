import { describe, expect, it } from "vitest";
import { createInMemoryInvocationJournal, type InvocationJournal } from "../../../src/server/index.js";
import { createShopApp, dana, mallory, newInvocationId, type ShopApp } from "../remote-fixture.js";

const context = { tenant: "t1" };
const call = (app: ShopApp, capabilityId: string, input: unknown, invocationId: string, over: Record<string, unknown> = {}) =>
  app.service.invoke(app.makeRuntime(), capabilityId, input, { actor: dana, context, surface: "aiSdk", invocationId, ...over });

describe("service.invoke: claims and replays (distributed.md §5.4)", () => {
  it("runs once under a fresh claim and settles the projected envelope in the journal", async () => {
    const app = createShopApp();
    const invocationId = newInvocationId();
    const result = await call(app, "orders.refund", { orderId: "o1", cents: 10 }, invocationId, { correlationId: "conv-1" });
    expect(result).toMatchObject({ protocol: 1, invocationId, status: "completed", replayed: false, output: { refunded: 10 } });
    const record = await app.service.get(invocationId);
    expect(record).toMatchObject({ namespace: "shop", invocationId, state: "settled", fence: 1, capabilityId: "orders.refund", surface: "aiSdk" });
    expect(record!.actor).toEqual({ id: dana.id, kind: dana.kind });
    expect(record!.correlationId).toBe("conv-1");
    expect(record!.outcome!.executionId).toBe((result as { executionId: string }).executionId);
  });

  it("passes one idempotency key per logical operation: inv_ + base64url(sha256(namespace \\0 invocationId))", async () => {
    const app = createShopApp();
    const { createHash } = await import("node:crypto");
    const invocationId = newInvocationId();
    await call(app, "notes.read", { id: "a" }, invocationId, { correlationId: "conv-9" });
    const expected = `inv_${createHash("sha256").update(`shop\u0000${invocationId}`).digest("base64url")}`;
    expect(app.effects.keys[0]).toMatchObject({ idempotencyKey: expected, correlationId: "conv-9" });
  });

  it("J6: the same id with another input or capability of the same actor is INVOCATION_CONFLICT, unjournaled and not run", async () => {
    const app = createShopApp();
    const invocationId = newInvocationId();
    await call(app, "orders.refund", { orderId: "o1", cents: 10 }, invocationId);
    for (const [capabilityId, input, actor] of [
      ["orders.refund", { orderId: "o1", cents: 11 }, dana],
      ["notes.read", { id: "o1" }, dana],
    ] as const) {
      const result = await call(app, capabilityId, input, invocationId, { actor });
      expect(result).toEqual({
        protocol: 1,
        invocationId,
        executionId: "",
        replayed: false,
        status: "failed",
        error: { code: "INVOCATION_CONFLICT", message: "This invocation id was already used for a different request; use a new id.", retryable: false },
      });
    }
    expect(app.effects.count("orders.refund")).toBe(1);
    expect(app.effects.count("notes.read")).toBe(0);
    expect(app.events.filter((e) => e.type === "conflict")).toHaveLength(2);
    expect((await app.service.get(invocationId))!.fence).toBe(1);
  });

  it("SI-8 / J6: another actor's id looks unused: the call runs unjournaled, the owner's row stays as it was", async () => {
    const app = createShopApp();
    const invocationId = newInvocationId();
    await call(app, "orders.refund", { orderId: "o1", cents: 10 }, invocationId);
    const result = await call(app, "orders.refund", { orderId: "o1", cents: 10 }, invocationId, { actor: mallory });
    expect(result).toMatchObject({ protocol: 1, invocationId, replayed: false });
    expect(result.status).not.toBe("failed");
    expect(app.events.filter((e) => e.type === "conflict")).toHaveLength(1);
    const row = (await app.service.get(invocationId))!;
    expect(row).toMatchObject({ fence: 1, actor: { id: dana.id } });
  });

  it("fingerprints the RPC-encoded input: a Map is not the empty object, and equal Maps are the same request", async () => {
    const app = createShopApp();
    const invocationId = newInvocationId();
    // notes.read validates { id }, so the extra `m` reaches only the fingerprint; the outcome itself does not matter.
    await call(app, "notes.read", { id: "a", m: new Map([["k", 1]]) }, invocationId);
    expect((await call(app, "notes.read", { id: "a", m: {} }, invocationId)).status).toBe("failed");
    const replay = await call(app, "notes.read", { id: "a", m: new Map([["k", 1]]) }, invocationId);
    expect(replay).toMatchObject({ status: "completed", replayed: true });
  });

  it("an input without an RPC JSON form is refused INPUT_INVALID, unjournaled, and never reaches the runtime", async () => {
    const app = createShopApp();
    const invocationId = newInvocationId();
    const result = await call(app, "notes.read", { id: "a", f: () => 1 }, invocationId);
    expect(result).toMatchObject({ status: "failed", executionId: "", error: { code: "INPUT_INVALID", retryable: false } });
    expect(await app.service.get(invocationId)).toBeNull();
    expect(app.audit).toEqual([]);
  });

  it("F3: two concurrent invokes with one id, handler on a latch: one effect, the other in-progress, a third replayed", async () => {
    const app = createShopApp();
    const invocationId = newInvocationId();
    const gate = app.effects.hold();
    const first = call(app, "orders.refund", { orderId: "o1", cents: 5 }, invocationId);
    await app.effects.entered();
    expect(await call(app, "orders.refund", { orderId: "o1", cents: 5 }, invocationId)).toMatchObject({
      status: "outcome-unknown",
      reason: "in-progress",
    });
    gate.release();
    const settled = await first;
    expect(await call(app, "orders.refund", { orderId: "o1", cents: 5 }, invocationId)).toEqual({ ...settled, replayed: true });
    expect(app.effects.count("orders.refund")).toBe(1);
    expect(app.events.map((e) => e.type)).toEqual(["claimed", "outcome_unknown", "replayed"]);
  });

  it("F5: a signal-ignoring write that times out is journaled unknown/interrupted and answered outcome-unknown", async () => {
    const app = createShopApp();
    const invocationId = newInvocationId();
    const result = await call(app, "orders.stuckWrite", { orderId: "o1" }, invocationId);
    expect(result).toEqual(expect.objectContaining({ status: "outcome-unknown", reason: "interrupted", invocationId }));
    expect(await app.service.get(invocationId)).toMatchObject({ state: "unknown", unknownReason: "interrupted" });
    expect(await app.service.reconcile(invocationId, { actor: dana, surface: "aiSdk" })).toMatchObject({ state: "unknown", reason: "interrupted" });
    // Asking again never re-runs it.
    expect(await call(app, "orders.stuckWrite", { orderId: "o1" }, invocationId)).toMatchObject({ status: "outcome-unknown", reason: "interrupted" });
    expect(app.effects.count("orders.stuckWrite")).toBe(1);
  });

  it("F5: a read that times out settles cancelled TIMEOUT, with effectStatus carried to the wire", async () => {
    const app = createShopApp();
    const invocationId = newInvocationId();
    const result = await call(app, "orders.stuckRead", { orderId: "o1" }, invocationId);
    expect(result).toMatchObject({
      status: "cancelled",
      effectStatus: "unknown",
      error: { code: "TIMEOUT", message: "The operation timed out.", retryable: true },
    });
    expect(await app.service.get(invocationId)).toMatchObject({ state: "settled" });
    expect(await call(app, "orders.stuckRead", { orderId: "o1" }, invocationId)).toEqual({ ...result, replayed: true });
  });

  it("a caller abort of a write mid-effect is interrupted; of a read, a settled cancellation", async () => {
    const app = createShopApp();
    const write = newInvocationId();
    const controller = new AbortController();
    const gate = app.effects.hold();
    const pending = call(app, "orders.refund", { orderId: "o1", cents: 1 }, write, { signal: controller.signal });
    await app.effects.entered();
    controller.abort();
    expect(await pending).toMatchObject({ status: "outcome-unknown", reason: "interrupted" });
    gate.release();

    const read = newInvocationId();
    const readAbort = new AbortController();
    const readGate = app.effects.hold();
    const reading = call(app, "notes.slowRead", { id: "n" }, read, { signal: readAbort.signal });
    await app.effects.entered();
    readAbort.abort();
    expect(await reading).toMatchObject({ status: "cancelled", error: { code: "CANCELLED" }, effectStatus: "unknown" });
    readGate.release();
    expect(await app.service.get(read)).toMatchObject({ state: "settled" });
  });

  it("SI-9: failures cross as the model serialization only: generic, no cause, stage or internal text", async () => {
    const app = createShopApp();
    const invocationId = newInvocationId();
    const result = await call(app, "orders.boom", {}, invocationId);
    expect(result).toMatchObject({ status: "failed", error: { code: "INTERNAL_ERROR", message: "The operation failed.", retryable: false } });
    expect(Object.keys((result as { error: object }).error).sort()).toEqual(["code", "message", "retryable"]);
    const record = await app.service.get(invocationId);
    expect(JSON.stringify(record)).not.toContain("users_table");
    expect(JSON.stringify(result)).not.toContain("users_table");
  });

  it("a completed output above maxStoredOutputBytes is answered in full, then replayed withheld", async () => {
    const app = createShopApp({ service: { maxStoredOutputBytes: 100 } });
    const invocationId = newInvocationId();
    const first = await call(app, "orders.big", { size: 500 }, invocationId);
    expect(first).toMatchObject({ status: "completed", output: { blob: "x".repeat(500) } });
    const replay = await call(app, "orders.big", { size: 500 }, invocationId);
    expect(replay).toMatchObject({ status: "completed", replayed: true, outputWithheld: true });
    expect((replay as { output?: unknown }).output).toBeUndefined();
    const small = newInvocationId();
    await call(app, "orders.big", { size: 10 }, small);
    const smallReplay = await call(app, "orders.big", { size: 10 }, small);
    expect(smallReplay).toMatchObject({ output: { blob: "x".repeat(10) }, replayed: true });
    expect((smallReplay as { outputWithheld?: true }).outputWithheld).toBeUndefined();
  });

  it("SI-10: journal events are payload-free: no input, output or actor attributes", async () => {
    const app = createShopApp();
    const invocationId = newInvocationId();
    const sentinel = "SENTINEL-7f3a";
    const actor = { ...dana, displayName: sentinel, attributes: { secret: sentinel } };
    await call(app, "orders.refund", { orderId: sentinel, cents: 3 }, invocationId, { actor });
    await call(app, "orders.refund", { orderId: sentinel, cents: 3 }, invocationId, { actor });
    await call(app, "orders.refund", { orderId: sentinel, cents: 4 }, invocationId, { actor });
    expect(app.events.map((e) => e.type)).toEqual(["claimed", "replayed", "conflict"]);
    for (const event of app.events) {
      expect(event).toMatchObject({ invocationId, capabilityId: "orders.refund", surface: "aiSdk", actor: { id: dana.id, kind: "user" } });
      expect(event.timestamp).toBeInstanceOf(Date);
      expect(JSON.stringify(event)).not.toContain(sentinel);
    }
    const record = await app.service.get(invocationId);
    expect(JSON.stringify(record!.actor)).not.toContain(sentinel);
  });

  it("a throwing onEvent consumer changes no outcome", async () => {
    const app = createShopApp({ service: { onEvent: () => { throw new Error("consumer down"); } } });
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void errors.push(args);
    try {
      expect(await call(app, "notes.read", { id: "x" }, newInvocationId())).toMatchObject({ status: "completed" });
    } finally {
      console.error = original;
    }
    expect(errors.length).toBeGreaterThan(0);
  });
});

describe("service.invoke: journal failures (distributed.md §10 F6, F7)", () => {
  const failing = (inner: InvocationJournal, method: keyof InvocationJournal): InvocationJournal => {
    const journal: InvocationJournal = Object.create(inner);
    (journal as unknown as Record<string, unknown>)[method] = async () => {
      throw new Error("journal unreachable: db-host-7");
    };
    return journal;
  };

  it("F6: the journal down at claim gives failed INTERNAL_ERROR, generic and not retryable; the handler never ran", async () => {
    const journal = failing(createInMemoryInvocationJournal(), "begin");
    const app = createShopApp({ service: { journal } });
    const invocationId = newInvocationId();
    const result = await call(app, "orders.refund", { orderId: "o1", cents: 1 }, invocationId);
    expect(result).toEqual({
      protocol: 1,
      invocationId,
      executionId: "",
      replayed: false,
      status: "failed",
      error: { code: "INTERNAL_ERROR", message: "The operation failed.", retryable: false },
    });
    expect(app.effects.total()).toBe(0);
    expect(app.audit).toEqual([]);
  });

  it("F7: the journal down at settlement still answers the real envelope, emits settlement_failed, and the row lapses", async () => {
    const inner = createInMemoryInvocationJournal({ now: () => clockNow() });
    let offset = 0;
    const clockNow = () => new Date(Date.now() + offset);
    const journal = failing(inner, "finish");
    const app = createShopApp({ service: { journal, leaseMs: 1_000, now: clockNow } });
    const invocationId = newInvocationId();
    const result = await call(app, "orders.refund", { orderId: "o1", cents: 1 }, invocationId);
    expect(result).toMatchObject({ status: "completed", output: { refunded: 1 }, replayed: false });
    expect(app.events.map((e) => e.type)).toEqual(["claimed", "settlement_failed"]);
    expect(await app.service.get(invocationId)).toMatchObject({ state: "claimed" });
    offset = 1_001;
    expect(await app.service.get(invocationId)).toMatchObject({ state: "unknown", unknownReason: "lease-lapsed" });
    expect(await call(app, "orders.refund", { orderId: "o1", cents: 1 }, invocationId)).toMatchObject({
      status: "outcome-unknown",
      reason: "lease-lapsed",
    });
    expect(app.effects.count("orders.refund")).toBe(1);
  });
});
