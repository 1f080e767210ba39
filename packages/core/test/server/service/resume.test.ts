import { os } from "@orpc/server";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import {
  agentMeta,
  agentProcedure,
  allow,
  createAgentRuntime,
  createCapabilityRegistry,
  createInMemoryApprovalCoordinator,
  defineGovernance,
  definePolicy,
  deny,
  type Actor,
  type AgentRuntime,
} from "../../../src/index.js";
import { createInMemoryInvocationJournal, createInvocationService } from "../../../src/server/index.js";
import { createShopApp, dana, mallory, manualClock, newInvocationId, priya, shopDefs, createEffects, type AppContext, type ShopApp } from "../remote-fixture.js";

const context = { tenant: "t1" };
const input = { orderId: "o9", cents: 900 };

async function suspend(app: ShopApp, invocationId = newInvocationId(), actor: Actor = dana) {
  const result = await app.service.invoke(app.makeRuntime(), "orders.gatedRefund", input, {
    actor,
    context,
    surface: "aiSdk",
    invocationId,
    correlationId: "conv-a",
  });
  if (result.status !== "approval-required") throw new Error(`expected approval-required, got ${result.status}`);
  return { invocationId, approvalId: result.approval.id, suspended: result };
}
const resume = (app: ShopApp, approvalId: string, invocationId: string, over: Record<string, unknown> = {}, rt: AgentRuntime<AppContext> = app.makeRuntime()) =>
  app.service.resume(rt, approvalId, { actor: dana, context, surface: "aiSdk", invocationId, ...over });
const approve = (app: ShopApp, approvalId: string) => app.makeRuntime().approvals.decide(approvalId, { status: "approved", approver: priya });

describe("service.resume across processes (distributed.md §6, §10 A1–A7)", () => {
  it("the suspension is journaled pending with its approval and replays as the stored approval-required envelope", async () => {
    const app = createShopApp();
    const { invocationId, approvalId, suspended } = await suspend(app);
    expect(suspended).toMatchObject({ replayed: false, approval: { id: approvalId, capabilityId: "orders.gatedRefund", status: "pending", types: ["manager"] } });
    expect(typeof suspended.approval.requestedAt).toBe("string");
    expect(new Date(suspended.approval.expiresAt).toISOString()).toBe(suspended.approval.expiresAt);
    expect(await app.service.get(invocationId)).toMatchObject({ state: "pending", approvalId });
    const again = await app.service.invoke(app.makeRuntime(), "orders.gatedRefund", input, { actor: dana, context, surface: "aiSdk", invocationId });
    expect(again).toEqual({ ...suspended, replayed: true });
  });

  it("A1: invoke in process 1, decide in 2, resume in 3 runs once, with the original idempotency key, correlation id and stored input", async () => {
    const clock = manualClock();
    const journal = createInMemoryInvocationJournal({ now: clock.now });
    const coordinator = createInMemoryApprovalCoordinator();
    const effects = createEffects();
    const registry = createCapabilityRegistry(shopDefs(effects));
    // Each "process" has its own service and runtime over the shared stores.
    const process = () => {
      const service = createInvocationService({ journal, namespace: "shop", revision: "r1", now: clock.now });
      const runtime = () => createAgentRuntime<AppContext>({ governance: defineGovernance({ registry }), approvals: { coordinator }, audit: () => {} });
      return { service, runtime };
    };
    const p1 = process();
    const invocationId = newInvocationId();
    const suspended = await p1.service.invoke(p1.runtime(), "orders.gatedRefund", input, { actor: dana, context, surface: "aiSdk", invocationId, correlationId: "conv-a1" });
    if (suspended.status !== "approval-required") throw new Error("expected a suspension");
    await process().runtime().approvals.decide(suspended.approval.id, { status: "approved", approver: priya });
    const p3 = process();
    const fresh = { ...dana, attributes: { roles: ["refunds"], session: "s3" } };
    const done = await p3.service.resume(p3.runtime(), suspended.approval.id, { actor: fresh, context, surface: "aiSdk", invocationId });
    expect(done).toMatchObject({ status: "completed", output: { refunded: 900 }, replayed: false, invocationId });
    const { createHash } = await import("node:crypto");
    expect(effects.keys).toEqual([
      {
        capabilityId: "orders.gatedRefund",
        idempotencyKey: `inv_${createHash("sha256").update(`shop\u0000${invocationId}`).digest("base64url")}`,
        correlationId: "conv-a1",
        input,
      },
    ]);
    const again = await process().service.resume(p3.runtime(), suspended.approval.id, { actor: dana, context, surface: "aiSdk", invocationId });
    expect(again).toEqual({ ...done, replayed: true });
    expect(effects.count("orders.gatedRefund")).toBe(1);
  });

  it("A2: a revoked role in the fresh attributes → POLICY_DENIED, the approval stays unconsumed and the row suspended again", async () => {
    const roles = definePolicy("refunds-role", (req) =>
      ((req.actor.attributes?.roles as string[] | undefined) ?? []).includes("refunds") ? allow() : deny("ROLE", "You may not refund."),
    );
    const app = createShopApp({ policies: [roles] });
    const { invocationId, approvalId } = await suspend(app);
    await approve(app, approvalId);
    const revoked = await resume(app, approvalId, invocationId, { actor: { ...dana, attributes: { roles: [] } } });
    expect(revoked).toMatchObject({ status: "failed", error: { code: "POLICY_DENIED", message: "You may not refund.", retryable: false } });
    expect((await app.coordinator.get(approvalId))!.status).toBe("approved");
    expect(await app.service.get(invocationId)).toMatchObject({ state: "pending", approvalId });
    expect(app.effects.count("orders.gatedRefund")).toBe(0);
    // Restored: the same approval now runs once.
    expect(await resume(app, approvalId, invocationId)).toMatchObject({ status: "completed" });
    expect(app.effects.count("orders.gatedRefund")).toBe(1);
  });

  it("A3: exposure removed → the concealed answer; the approval stays unconsumed and resumable", async () => {
    const app = createShopApp();
    const { invocationId, approvalId } = await suspend(app);
    await approve(app, approvalId);
    const base = agentProcedure(os);
    const withdrawn = createCapabilityRegistry({
      orders: {
        gatedRefund: base
          .input(z.object({ orderId: z.string(), cents: z.number() }))
          .meta(agentMeta({ description: "Refund with approval.", expose: { direct: true }, sideEffect: "write", risk: "high", approval: { required: true } }))
          .handler(() => ({ refunded: 0 })),
      },
    });
    const rt = createAgentRuntime<AppContext>({ governance: defineGovernance({ registry: withdrawn }), approvals: { coordinator: app.coordinator }, audit: () => {} });
    const concealed = await resume(app, approvalId, invocationId, {}, rt);
    expect(concealed).toMatchObject({ status: "failed", error: { code: "CAPABILITY_NOT_FOUND", message: "Capability not found.", retryable: false } });
    expect((await app.coordinator.get(approvalId))!.status).toBe("approved");
    expect(await app.service.get(invocationId)).toMatchObject({ state: "pending" });
    expect(await resume(app, approvalId, invocationId)).toMatchObject({ status: "completed" });
  });

  it("A4 / S8: another actor, surface or invocation id, and an unjournaled approval, all answer exactly like an unknown approval", async () => {
    const app = createShopApp();
    const { invocationId, approvalId } = await suspend(app);
    await approve(app, approvalId);
    const direct = await app.makeRuntime().invoke("orders.gatedRefund", input, { actor: dana, context, surface: "aiSdk" });
    if (direct.status !== "approval-required") throw new Error("expected a suspension");
    await approve(app, direct.approval.id);
    const answers = [
      await resume(app, approvalId, invocationId, { actor: mallory }),
      await resume(app, approvalId, invocationId, { actor: { id: dana.id, kind: "service" } }),
      await resume(app, approvalId, invocationId, { surface: "mcp" }),
      await resume(app, approvalId, newInvocationId()),
      await resume(app, direct.approval.id, invocationId),
      await resume(app, "apr_does-not-exist", invocationId),
    ];
    const strip = (r: object) => ({ ...r, invocationId: "·" });
    const unknown = strip(answers[5]!);
    expect(unknown).toEqual({
      protocol: 1,
      invocationId: "·",
      executionId: "",
      replayed: false,
      status: "failed",
      error: { code: "INTERNAL_ERROR", message: "The operation failed.", retryable: false },
    });
    for (const answer of answers) expect(JSON.stringify(strip(answer))).toBe(JSON.stringify(unknown));
    // Nothing was consumed or run; the rightful caller still resumes.
    expect(app.effects.count("orders.gatedRefund")).toBe(0);
    expect(await resume(app, approvalId, invocationId)).toMatchObject({ status: "completed" });
  });

  it("A5: concurrent duplicate resumes run one effect; the loser is in-progress, later ones replay", async () => {
    const app = createShopApp();
    const { invocationId, approvalId } = await suspend(app);
    await approve(app, approvalId);
    const results = await Promise.all([resume(app, approvalId, invocationId), resume(app, approvalId, invocationId)]);
    expect(results.map((r) => r.status).sort()).toEqual(["completed", "outcome-unknown"]);
    expect(results.find((r) => r.status === "outcome-unknown")).toMatchObject({ reason: "in-progress" });
    const completed = results.find((r) => r.status === "completed")!;
    expect(await resume(app, approvalId, invocationId)).toEqual({ ...completed, replayed: true });
    expect(app.effects.count("orders.gatedRefund")).toBe(1);
  });

  it("A6: a crash between the resume claim and markConsumed: after not-applied the approval is still usable and resumes once", async () => {
    const app = createShopApp();
    const { invocationId, approvalId } = await suspend(app);
    await approve(app, approvalId);
    // A worker claims the suspended row and dies before the runtime consumed the approval.
    const crashed = await app.journal.claimSuspended({ namespace: "shop", invocationId }, approvalId, new Date(app.clock.now().getTime() + 30_000));
    expect(crashed.kind).toBe("claimed");
    expect(await resume(app, approvalId, invocationId)).toMatchObject({ status: "outcome-unknown", reason: "in-progress" });
    app.clock.advance(30_001);
    expect(await resume(app, approvalId, invocationId)).toMatchObject({ status: "outcome-unknown", reason: "lease-lapsed" });
    expect((await app.coordinator.get(approvalId))!.status).toBe("approved");
    await app.service.resolve(invocationId, { expectedFence: 2, by: { id: "u_ops", kind: "user" }, note: "no capability.started", resolution: { kind: "not-applied" } });
    expect(await app.service.get(invocationId)).toMatchObject({ state: "pending", approvalId });
    expect(await resume(app, approvalId, invocationId)).toMatchObject({ status: "completed", replayed: false });
    expect(await resume(app, approvalId, invocationId)).toMatchObject({ status: "completed", replayed: true });
    expect(app.effects.count("orders.gatedRefund")).toBe(1);
  });

  it("A7: a rejected approval settles failed APPROVAL_REJECTED, and replays", async () => {
    const app = createShopApp();
    const { invocationId, approvalId } = await suspend(app);
    await app.makeRuntime().approvals.decide(approvalId, { status: "rejected", approver: priya });
    const rejected = await resume(app, approvalId, invocationId);
    expect(rejected).toMatchObject({ status: "failed", error: { code: "APPROVAL_REJECTED", retryable: false } });
    expect(await app.service.get(invocationId)).toMatchObject({ state: "settled" });
    expect(await resume(app, approvalId, invocationId)).toEqual({ ...rejected, replayed: true });
    expect(app.effects.count("orders.gatedRefund")).toBe(0);
  });

  it("resuming before the decision answers APPROVAL_PENDING and leaves the row resumable", async () => {
    const app = createShopApp();
    const { invocationId, approvalId } = await suspend(app);
    expect(await resume(app, approvalId, invocationId)).toMatchObject({ status: "failed", error: { code: "APPROVAL_PENDING", retryable: true } });
    expect(await app.service.get(invocationId)).toMatchObject({ state: "pending", approvalId, fence: 2 });
    await approve(app, approvalId);
    expect(await resume(app, approvalId, invocationId)).toMatchObject({ status: "completed" });
    expect(app.effects.count("orders.gatedRefund")).toBe(1);
  });
});
