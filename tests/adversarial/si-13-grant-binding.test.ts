// SI-13: a grant covers only the calls it was issued for: its principal (id, kind and acting agent), surface, scope and
// conversation, capability and definition. Everything else asks for approval as if no grant existed.
import { allow, createInMemoryApprovalCoordinator, definePolicy, deny, type Actor } from "@orpc-agent/core";
import { describe, expect, it } from "vitest";
import { approvalOf, dana, errorOf } from "./support/runtime.js";
import { CAPS, HOUR, grant, grantRuntime, priya, refunds } from "./support/grants.js";

const context = {};
const input = { customerId: "c_ada", amount: 10 };

describe("what a grant binds (SI-13)", () => {
  it("SI-13: a conversation grant covers only its conversation: another conversation, or none, asks", async () => {
    const cap = refunds();
    const { runtime } = grantRuntime({ refund: cap.procedure });
    await runtime.grants.issue({ capabilityId: "refund", actor: dana, surface: "aiSdk", conversationId: "chat_1", issuers: [priya], grant: grant({ scope: "conversation" }) });
    const call = (conversationId?: string) =>
      runtime.invoke("refund", input, { actor: dana, context, surface: "aiSdk", ...(conversationId === undefined ? {} : { conversationId }) });
    expect((await call("chat_2")).status).toBe("approval-required");
    expect((await call()).status).toBe("approval-required");
    expect((await call("chat_1 ")).status).toBe("approval-required");
    expect((await call("CHAT_1")).status).toBe("approval-required");
    expect(cap.ran).toHaveLength(0);
    expect((await call("chat_1")).status).toBe("completed");
    expect(cap.ran).toHaveLength(1);
  });

  it("SI-13: a conversation grant decided with an approval binds the request's conversation; a request without one cannot take it", async () => {
    const cap = refunds();
    const { runtime } = grantRuntime({ refund: cap.procedure });
    const approval = approvalOf(await runtime.invoke("refund", input, { actor: dana, context, conversationId: "chat_1" }));
    expect(approval.conversationId).toBe("chat_1");
    const { grant: issued } = await runtime.approvals.decide(approval.id, { status: "approved", approver: priya, grant: grant({ scope: "conversation" }) });
    expect(issued).toMatchObject({ scope: "conversation", conversationId: "chat_1" });
    expect((await runtime.invoke("refund", input, { actor: dana, context, conversationId: "chat_2" })).status).toBe("approval-required");
    expect((await runtime.invoke("refund", input, { actor: dana, context, conversationId: "chat_1" })).status).toBe("completed");

    const without = approvalOf(await runtime.invoke("refund", input, { actor: dana, context }));
    await expect(runtime.approvals.decide(without.id, { status: "approved", approver: priya, grant: grant({ scope: "conversation" }) })).rejects.toMatchObject({
      code: "GRANT_NOT_ALLOWED",
    });
    expect((await runtime.approvals.get(without.id))!.status).toBe("pending");
  });

  it("SI-13: an actor grant covers any conversation of its principal, and nobody else: another id, kind or acting agent asks", async () => {
    const cap = refunds();
    const { runtime } = grantRuntime({ refund: cap.procedure });
    const viaBot: Actor = { ...dana, via: { id: "support-bot" } };
    await runtime.grants.issue({ capabilityId: "refund", actor: viaBot, surface: "direct", issuers: [priya], grant: grant({ uses: 10 }) });
    const strangers: Actor[] = [
      dana,
      { id: "dana", kind: "service", via: { id: "support-bot" } },
      { id: "Dana", kind: "user", via: { id: "support-bot" } },
      { id: "dana", kind: "user", via: { id: "other-bot" } },
      { id: "dana", kind: "user", via: { id: "Support-Bot" } },
      { id: "mallory", kind: "user", via: { id: "support-bot" } },
      { id: "support-bot", kind: "automation" },
    ];
    for (const actor of strangers) expect((await runtime.invoke("refund", input, { actor, context })).status, JSON.stringify(actor)).toBe("approval-required");
    expect(cap.ran).toHaveLength(0);
    for (const conversationId of [undefined, "chat_1", "chat_2"]) {
      const result = await runtime.invoke("refund", input, { actor: { ...viaBot, displayName: "Dana", attributes: { team: "x" } }, context, ...(conversationId ? { conversationId } : {}) });
      expect(result.status).toBe("completed");
    }
  });

  it("SI-13: a grant covers its surface only", async () => {
    const cap = refunds();
    const { runtime } = grantRuntime({ refund: cap.procedure });
    await runtime.grants.issue({ capabilityId: "refund", actor: dana, surface: "aiSdk", issuers: [priya], grant: grant() });
    expect((await runtime.invoke("refund", input, { actor: dana, context, surface: "direct" })).status).toBe("approval-required");
    expect((await runtime.invoke("refund", input, { actor: dana, context, surface: "aiSdk" })).status).toBe("completed");
  });

  it("SI-13: a grant covers its capability only, even one with the same approval type and caps", async () => {
    const refund = refunds();
    const cancel = refunds();
    const { runtime } = grantRuntime({ refund: refund.procedure, cancel: cancel.procedure });
    await runtime.grants.issue({ capabilityId: "refund", actor: dana, surface: "direct", issuers: [priya], grant: grant() });
    expect((await runtime.invoke("cancel", input, { actor: dana, context })).status).toBe("approval-required");
    expect(cancel.ran).toHaveLength(0);
  });

  it("SI-13: a definition change voids the grant: after a redeploy that changes the capability's governance nothing is covered", async () => {
    const coordinator = createInMemoryApprovalCoordinator();
    const before = refunds();
    const { runtime } = grantRuntime({ refund: before.procedure }, { approvals: { coordinator } });
    const issued = await runtime.grants.issue({ capabilityId: "refund", actor: dana, surface: "direct", issuers: [priya], grant: grant({ uses: 5 }) });
    expect((await runtime.invoke("refund", input, { actor: dana, context })).status).toBe("completed");

    // The same store behind a runtime whose refund is now a lower-risk, differently typed capability.
    const after = refunds({ approval: { required: true, type: "clerk", grants: { ...CAPS, scopes: ["actor"] } } });
    const redeployed = grantRuntime({ refund: after.procedure }, { approvals: { coordinator } }).runtime;
    expect((await redeployed.invoke("refund", input, { actor: dana, context })).status).toBe("approval-required");
    expect(after.ran).toHaveLength(0);
    expect((await redeployed.grants.get(issued.id))!.status).toBe("void");
    expect(await redeployed.grants.list({ actor: dana, active: true })).toEqual([]);
    // The original definition still stands for the first runtime.
    expect((await runtime.grants.get(issued.id))!).toMatchObject({ status: "active", usesLeft: 4 });
  });

  it("SI-13: a policy added since issue voids the grant (the definition binds the policies that apply)", async () => {
    const coordinator = createInMemoryApprovalCoordinator();
    const cap = refunds();
    const { runtime } = grantRuntime({ refund: cap.procedure }, { approvals: { coordinator } });
    await runtime.grants.issue({ capabilityId: "refund", actor: dana, surface: "direct", issuers: [priya], grant: grant() });
    const audit = definePolicy("audit-everything", () => allow(), { phases: ["invocation"] });
    const { runtime: withPolicy } = grantRuntime({ refund: cap.procedure }, { approvals: { coordinator }, policies: [audit] });
    expect((await withPolicy.invoke("refund", input, { actor: dana, context })).status).toBe("approval-required");
  });

  it("SI-13: a capability without `grants` refuses every grant, and nothing covers it", async () => {
    const cap = refunds({ approval: { required: true, type: "manager" } });
    const { runtime } = grantRuntime({ refund: cap.procedure });
    await expect(runtime.grants.issue({ capabilityId: "refund", actor: dana, surface: "direct", issuers: [priya], grant: grant() })).rejects.toMatchObject({
      code: "GRANT_NOT_ALLOWED",
      stage: "approval",
    });
    const approval = approvalOf(await runtime.invoke("refund", input, { actor: dana, context }));
    await expect(runtime.approvals.decide(approval.id, { status: "approved", approver: priya, grant: grant() })).rejects.toMatchObject({ code: "GRANT_NOT_ALLOWED" });
    expect((await runtime.approvals.get(approval.id))!.status).toBe("pending");
    expect(await runtime.grants.list()).toEqual([]);
    // An unknown capability, or one not exposed on the surface, answers the same.
    await expect(runtime.grants.issue({ capabilityId: "nope", actor: dana, surface: "direct", issuers: [priya], grant: grant() })).rejects.toMatchObject({ code: "GRANT_NOT_ALLOWED" });
    await expect(runtime.grants.issue({ capabilityId: "refund", actor: dana, surface: "mcp", issuers: [priya], grant: grant() })).rejects.toMatchObject({ code: "GRANT_NOT_ALLOWED" });
  });

  it("SI-13: a request above the caps is refused: uses, lifetime, scope", async () => {
    const cap = refunds({ approval: { required: true, type: "manager", grants: { maxUses: 3, maxTtlMs: HOUR, scopes: ["conversation"] } } });
    const { runtime } = grantRuntime({ refund: cap.procedure });
    const issue = (g: Parameters<typeof grant>[0], conversationId = "chat_1") =>
      runtime.grants.issue({ capabilityId: "refund", actor: dana, surface: "direct", issuers: [priya], grant: grant(g), ...(g?.scope === "actor" ? {} : { conversationId }) });
    await expect(issue({ uses: 4, scope: "conversation" })).rejects.toMatchObject({ code: "GRANT_EXCEEDS_CAPS" });
    await expect(issue({ ttlMs: HOUR + 1, scope: "conversation" })).rejects.toMatchObject({ code: "GRANT_EXCEEDS_CAPS" });
    await expect(issue({ scope: "actor" })).rejects.toMatchObject({ code: "GRANT_EXCEEDS_CAPS" });
    const approval = approvalOf(await runtime.invoke("refund", input, { actor: dana, context, conversationId: "chat_1" }));
    await expect(runtime.approvals.decide(approval.id, { status: "approved", approver: priya, grant: grant({ uses: 4, scope: "conversation" }) })).rejects.toMatchObject({
      code: "GRANT_EXCEEDS_CAPS",
    });
    expect((await runtime.approvals.get(approval.id))!.status).toBe("pending");
    const ok = await issue({ uses: 3, scope: "conversation" });
    expect(ok.expiresAt.getTime() - ok.issuedAt.getTime()).toBe(HOUR);
  });

  it("SI-13: a grant past its expiry covers nothing, on the runtime's clock", async () => {
    let now = Date.parse("2030-01-01T00:00:00.000Z");
    const clock = () => new Date(now);
    const cap = refunds();
    const { runtime } = grantRuntime({ refund: cap.procedure }, { approvals: { coordinator: createInMemoryApprovalCoordinator({ now: clock }) }, now: clock });
    await runtime.grants.issue({ capabilityId: "refund", actor: dana, surface: "direct", issuers: [priya], grant: grant({ ttlMs: 1000 }) });
    now += 1000;
    expect((await runtime.invoke("refund", input, { actor: dana, context })).status).toBe("completed");
    now += 1;
    expect((await runtime.invoke("refund", input, { actor: dana, context })).status).toBe("approval-required");
  });

  it("SI-13: policies run first: a deny is never overridden by a grant", async () => {
    const cap = refunds();
    const noRefundsToAda = definePolicy("no-ada", (req) => ((req.input as { customerId: string }).customerId === "c_ada" ? deny("frozen", "No.") : allow()), {
      phases: ["invocation"],
    });
    const { runtime } = grantRuntime({ refund: cap.procedure }, { policies: [noRefundsToAda] });
    const issued = await runtime.grants.issue({ capabilityId: "refund", actor: dana, surface: "direct", issuers: [priya], grant: grant() });
    expect(errorOf(await runtime.invoke("refund", input, { actor: dana, context })).code).toBe("POLICY_DENIED");
    expect(cap.ran).toHaveLength(0);
    expect((await runtime.grants.get(issued.id))!.usesLeft).toBe(3);
  });
});
