import { afterEach, describe, expect, it } from "vitest";
import { isOutcomeUnknown } from "../../src/client/index.js";
import { dana, latch, newInvocationId, startShop, type Shop } from "./remote-fixture.js";

let shop: Shop | undefined;
afterEach(async () => {
  await shop?.close();
  shop = undefined;
});

describe("remote invoke over loopback HTTP (distributed.md §10 acceptance)", () => {
  it("the same invocation id twice in sequence runs one effect; the second answer is the stored envelope, replayed", async () => {
    shop = await startShop();
    const client = shop.client();
    const invocationId = newInvocationId();
    const request = { capabilityId: "notes.read", input: { id: "n1" }, invocationId };
    const first = await client.invoke(request);
    const second = await client.invoke(request);
    expect(shop.effects.count("notes.read")).toBe(1);
    expect(first).toMatchObject({ protocol: 1, status: "completed", invocationId, replayed: false });
    expect(second).toEqual({ ...first, replayed: true });
    // The stored envelope is type-identical to the first response (RPC JSON codec): Date and Map survive.
    if (second.status !== "completed") throw new Error("expected completed");
    const output = second.output as { at: Date; labels: Map<string, number> };
    expect(output.at).toBeInstanceOf(Date);
    expect(output.labels).toBeInstanceOf(Map);
    expect(output.labels.get("a")).toBe(1);
    expect(shop.events.map((e) => e.type)).toEqual(["claimed", "replayed"]);
  });

  it("the same id concurrently runs one effect: the second gets outcome-unknown in-progress while the first holds the claim, then reconcile returns the settled result", async () => {
    shop = await startShop();
    const client = shop.client();
    const invocationId = newInvocationId();
    const request = { capabilityId: "orders.refund", input: { orderId: "o1", cents: 500 }, invocationId };
    const gate = shop.effects.hold();
    const first = client.invoke(request);
    await shop.effects.entered();
    const second = await client.invoke(request);
    expect(second).toMatchObject({ protocol: 1, status: "outcome-unknown", reason: "in-progress", invocationId });
    expect(await client.reconcile({ invocationId })).toMatchObject({ state: "claimed" });
    gate.release();
    const settled = await first;
    expect(settled).toMatchObject({ status: "completed", output: { refunded: 500 }, replayed: false });
    const reconciled = await client.reconcile({ invocationId });
    expect(reconciled).toEqual({ protocol: 1, invocationId, state: "settled", result: { ...settled, replayed: true } });
    const third = await client.invoke(request);
    expect(third).toEqual({ ...settled, replayed: true });
    expect(shop.effects.count("orders.refund")).toBe(1);
  });

  it("D-6: a contextual capability is described with contextual: true and still invokes, governed like any other", async () => {
    shop = await startShop();
    const client = shop.client();
    const listing = await client.describe();
    const archive = listing.descriptors.find((d) => d.id === "ui.archive");
    expect(archive).toMatchObject({ contextual: true, toolNames: { aiSdk: "ui_archive", mcp: "ui_archive" } });
    expect(listing.descriptors.filter((d) => d.contextual).map((d) => d.id)).toEqual(["ui.archive"]);
    const invocationId = newInvocationId();
    expect(await client.invoke({ capabilityId: "ui.archive", input: { recordId: "r1" }, invocationId, expectedDigest: archive!.digest })).toMatchObject({
      status: "completed",
      output: { archived: "r1" },
    });
    // Presentation grants nothing: validation still applies.
    expect(await client.invoke({ capabilityId: "ui.archive", input: {}, invocationId: newInvocationId() })).toMatchObject({
      status: "failed",
      error: { code: "INPUT_INVALID" },
    });
  });

  it("D-1: a body carrying actor or surface is rejected with 400 and never honoured; the runtime is untouched", async () => {
    shop = await startShop();
    const invocationId = newInvocationId();
    for (const extra of [{ actor: { id: "u_admin", kind: "user" } }, { surface: "direct" }, { namespace: "other" }, { context: { tenant: "t2" } }]) {
      const response = await fetch(`${shop.url}/agent/invoke`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-actor": dana.id },
        body: JSON.stringify({ json: { capabilityId: "notes.read", input: { id: "n1" }, invocationId, ...extra } }),
      });
      expect(response.status).toBe(400);
      await response.text();
    }
    // Through the typed client the same refusal is a definite `failed`, never an unknown outcome.
    const client = shop.client();
    const refused = await client.invoke({ capabilityId: "notes.read", input: { id: "n1" }, invocationId, actor: { id: "u_admin" } } as never);
    expect(refused).toMatchObject({ status: "failed", error: { code: "INTERNAL_ERROR", message: "The operation failed.", retryable: false } });
    expect(shop.runtimeCount()).toBe(0);
    expect(shop.audit).toEqual([]);
    expect(shop.effects.total()).toBe(0);
    expect(await shop.journal.get({ namespace: "shop", invocationId })).toBeNull();
  });

  it("a connection dropped after the request was sent gives outcome-unknown transport; the effect count is what the journal says", async () => {
    shop = await startShop();
    const client = shop.client();
    const invocationId = newInvocationId();
    let socketOf: (() => void) | undefined;
    const disconnected = latch();
    shop.server.on("request", (req, res) => {
      socketOf = () => req.socket.destroy();
      res.on("close", () => disconnected.release());
    });
    const gate = shop.effects.hold();
    const pending = client.invoke({ capabilityId: "orders.refund", input: { orderId: "o2", cents: 100 }, invocationId });
    await shop.effects.entered();
    socketOf!(); // the server drops the connection mid-handler, after the effect began
    const result = await pending;
    expect(result).toMatchObject({ status: "outcome-unknown", reason: "transport", invocationId });
    expect(isOutcomeUnknown(result)).toBe(true);
    await disconnected.promise; // the server saw the drop before the effect finishes
    gate.release();
    // A write is not cancelled by the disconnect: it runs to completion and settles.
    await expect.poll(async () => (await client.reconcile({ invocationId })).state).toBe("settled");
    const reconciled = await client.reconcile({ invocationId });
    const record = await shop.service.get(invocationId);
    expect(record?.state).toBe("settled");
    expect(shop.effects.count("orders.refund")).toBe(1);
    if (reconciled.state !== "settled") throw new Error("expected settled");
    expect(reconciled.result).toMatchObject({ status: "completed", executionId: record!.outcome!.executionId, replayed: true });
    // Re-invoking the same id replays instead of running again.
    expect(await client.invoke({ capabilityId: "orders.refund", input: { orderId: "o2", cents: 100 }, invocationId })).toMatchObject({
      status: "completed",
      replayed: true,
    });
    expect(shop.effects.count("orders.refund")).toBe(1);
  });
});
