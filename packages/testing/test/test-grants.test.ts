import { os } from "@orpc/server";
import { z } from "zod";
import { agentMeta, agentProcedure, createAgentRuntime, createCapabilityRegistry, defineGovernance } from "@orpc-agent/core";
import { describe, expect, it } from "vitest";
import { approvalProbe, createAgentTestRuntime, fakeActor } from "../src/index.js";

// t.grants and t.approvals.approveWithGrant (SI-13, docs/guides/standing-grants.md).

const manager = fakeActor({ id: "u_manager" });

function registry(grants: boolean = true) {
  const calls: unknown[] = [];
  const refund = agentProcedure(os)
    .input(z.object({ customerId: z.string(), amount: z.number() }))
    .meta(
      agentMeta({
        description: "Refund a customer.",
        expose: { test: true },
        sideEffect: "write",
        risk: "high",
        approval: { required: true, type: "manager", ...(grants ? { grants: { maxUses: 5, maxTtlMs: 60_000, scopes: ["conversation", "actor"] } } : {}) },
      }),
    )
    .handler(({ input }) => (calls.push(input), { refunded: input.amount }));
  return { registry: createCapabilityRegistry({ refund }), calls };
}

describe("t.grants", () => {
  it("grant() issues through runtime.grants with the capability's caps as defaults, for the test actor on the test surface", async () => {
    const { registry: r, calls } = registry();
    const t = createAgentTestRuntime({ registry: r });
    const grant = await t.grants.grant("refund", { uses: 2 });
    expect(grant).toMatchObject({ capabilityId: "refund", actor: t.defaultActor, surface: "test", scope: "actor", uses: 2, issuers: [{ id: "test-approver" }] });
    expect(grant.expiresAt.getTime() - grant.issuedAt.getTime()).toBe(60_000);
    expect(t.audit.ofType("grant.issued")).toHaveLength(1);
    expect((await t.invoke("refund", { customerId: "c", amount: 1 })).status).toBe("completed");
    expect((await t.invoke("refund", { customerId: "c", amount: 1 })).status).toBe("completed");
    expect((await t.invoke("refund", { customerId: "c", amount: 1 })).status).toBe("approval-required");
    expect(calls).toHaveLength(2);
    expect((await t.grants.get(grant.id))!.usesLeft).toBe(0);
  });

  it("a conversation grant covers only t.invoke calls carrying its conversationId; revoke ends it", async () => {
    const { registry: r } = registry();
    const t = createAgentTestRuntime({ registry: r });
    const grant = await t.grants.grant("refund", { scope: "conversation", uses: 3 }, { conversationId: "chat_1" });
    expect((await t.invoke("refund", { customerId: "c", amount: 1 }, { conversationId: "chat_2" })).status).toBe("approval-required");
    expect((await t.invoke("refund", { customerId: "c", amount: 1 }, { conversationId: "chat_1" })).status).toBe("completed");
    await t.grants.revoke(grant.id, { by: manager });
    expect((await t.invoke("refund", { customerId: "c", amount: 1 }, { conversationId: "chat_1" })).status).toBe("approval-required");
    expect(t.audit.ofType("grant.revoked")).toHaveLength(1);
  });

  it("refusals are the runtime's: the requester as issuer, a request above the caps; a capability without grants is named", async () => {
    const { registry: r } = registry();
    const t = createAgentTestRuntime({ registry: r });
    await expect(t.grants.grant("refund", {}, { issuers: [t.defaultActor] })).rejects.toMatchObject({ code: "GRANT_ISSUERS_INSUFFICIENT" });
    await expect(t.grants.grant("refund", { uses: 6 })).rejects.toMatchObject({ code: "GRANT_EXCEEDS_CAPS" });
    const plain = createAgentTestRuntime({ registry: registry(false).registry });
    expect(() => plain.grants.grant("refund")).toThrow(/declares no approval\.grants/);
    await expect(plain.grants.grant("refund", { uses: 1, ttlMs: 1, scope: "actor" })).rejects.toMatchObject({ code: "GRANT_NOT_ALLOWED" });
  });
});

describe("t.approvals.approveWithGrant", () => {
  it("approves and returns the grant; the approved call resumes and the grant covers the next ones", async () => {
    const { registry: r, calls } = registry();
    const t = createAgentTestRuntime({ registry: r });
    const pending = await t.invoke("refund", { customerId: "c", amount: 1 });
    if (pending.status !== "approval-required") throw new Error("expected approval-required");
    const grant = await t.approvals.approveWithGrant(pending.approval.id, { uses: 1, ttlMs: 60_000, scope: "actor" }, manager);
    expect(grant).toMatchObject({ approvalId: pending.approval.id, issuers: [manager], usesLeft: 1 });
    expect((await t.resume(pending.approval.id)).status).toBe("completed");
    expect((await t.invoke("refund", { customerId: "c", amount: 1 })).status).toBe("completed");
    expect(calls).toHaveLength(2);
    await expect(t.approvals.approveWithGrant(pending.approval.id, { uses: 1, ttlMs: 1, scope: "actor" })).rejects.toMatchObject({ code: "APPROVAL_CONSUMED" });
  });

  it("the requester approving with a grant is APPROVAL_SELF_APPROVAL and the record stays pending", async () => {
    const { registry: r } = registry();
    const t = createAgentTestRuntime({ registry: r });
    const pending = await t.invoke("refund", { customerId: "c", amount: 1 });
    if (pending.status !== "approval-required") throw new Error("expected approval-required");
    await expect(t.approvals.approveWithGrant(pending.approval.id, { uses: 1, ttlMs: 1, scope: "actor" }, t.defaultActor)).rejects.toMatchObject({ code: "APPROVAL_SELF_APPROVAL" });
    expect((await t.approvals.get(pending.approval.id))!.status).toBe("pending");
  });
});

describe("approvalProbe", () => {
  it("keeps grants, so a runtime over it can issue and use them", async () => {
    const { registry: r, calls } = registry();
    const probe = approvalProbe();
    const runtime = createAgentRuntime({ governance: defineGovernance({ registry: r, policies: [] }), approvals: { coordinator: probe, seal: false }, audit: () => {} });
    const actor = fakeActor();
    await runtime.grants.issue({ capabilityId: "refund", actor, surface: "test", issuers: [manager], grant: { uses: 1, ttlMs: 1000, scope: "actor" } });
    expect((await probe.listGrants()).length).toBe(1);
    expect((await runtime.invoke("refund", { customerId: "c", amount: 1 }, { actor, context: {}, surface: "test" })).status).toBe("completed");
    expect(calls).toHaveLength(1);
  });
});
