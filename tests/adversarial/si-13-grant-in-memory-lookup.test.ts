// SI-13: the in-memory store answers the stage-9 lookup in the same tick, from records it shares instead of copying
// (issue 45's budget). Nothing a caller is handed may change what a grant covers, a coordinator that wraps the grant
// operations is always asked through its own functions, and an input no approver could bind is covered by no grant.
import { createInMemoryApprovalCoordinator, type ApprovalCoordinator, type GrantRecord } from "@orpc-agent/core";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { approvalOf, dana, errorOf, mo } from "./support/runtime.js";
import { grant, grantRuntime, priya, refunds } from "./support/grants.js";

const context = {};

/** Every way a caller can change a record it was handed, nested fields included. */
function tamper(record: GrantRecord | null): void {
  if (record === null) throw new Error("expected a record");
  record.actor.id = "mo";
  record.types.push("anything");
  record.conditions.length = 0;
  record.conditions.push({ path: "", op: "eq", value: 1 });
  record.issuers[0]!.id = "mo";
  record.issuedAt.setTime(0);
  record.expiresAt.setTime(8.64e15);
  record.usesLeft = 1_000;
  record.scope = "actor";
  record.status = "active";
}

describe("the in-memory stage-9 lookup (SI-13)", () => {
  it("SI-13: records handed out by runtime.grants and by the coordinator are copies: tampering with them widens nothing", async () => {
    const cap = refunds();
    const { runtime, coordinator } = grantRuntime({ refund: cap.procedure });
    const issued = await runtime.grants.issue({
      capabilityId: "refund",
      actor: dana,
      surface: "direct",
      issuers: [priya],
      grant: grant({ uses: 2, scope: "conversation", conditions: [{ path: "/amount", op: "lte", value: 50 }] }),
      conversationId: "conv_1",
    });
    const inConversation = { actor: dana, context, conversationId: "conv_1" };
    // A covered call first, so the lookup has built whatever it keeps for the grant.
    expect((await runtime.invoke("refund", { customerId: "c_ada", amount: 10 }, inConversation)).status).toBe("completed");

    tamper(issued);
    tamper(await runtime.grants.get(issued.id));
    for (const record of await runtime.grants.list()) tamper(record);
    tamper(await coordinator.getGrant!(issued.id));
    for (const record of await coordinator.listGrants!({ capabilityId: "refund", actorId: "dana", active: true })) tamper(record);

    // Still dana's only, still in conv_1 only, still under its condition, still one use left.
    expect((await runtime.invoke("refund", { customerId: "c_ada", amount: 10 }, { actor: mo, context, conversationId: "conv_1" })).status).toBe("approval-required");
    expect((await runtime.invoke("refund", { customerId: "c_ada", amount: 10 }, { actor: dana, context, conversationId: "conv_2" })).status).toBe("approval-required");
    expect((await runtime.invoke("refund", { customerId: "c_ada", amount: 500 }, inConversation)).status).toBe("approval-required");
    expect((await runtime.invoke("refund", { customerId: "c_ada", amount: 10 }, inConversation)).status).toBe("completed");
    expect((await runtime.invoke("refund", { customerId: "c_ada", amount: 10 }, inConversation)).status).toBe("approval-required");
    expect(cap.ran).toHaveLength(2);

    const stored = (await runtime.grants.get(issued.id))!;
    expect(stored).toMatchObject({ actor: { id: "dana" }, types: ["manager"], issuers: [{ id: "priya" }], usesLeft: 0, status: "exhausted", scope: "conversation" });
    expect(stored.conditions).toEqual([{ path: "/amount", op: "lte", value: 50 }]);
    expect(stored.expiresAt.getTime() - stored.issuedAt.getTime()).toBe(3_600_000);
  });

  it("SI-13: the approval a covered handler is shown is the store's own issuer, frozen: a handler that writes to it changes no grant", async () => {
    const attempts: string[] = [];
    const { procedure: refund } = refunds({
      handler: ({ context }) => {
        const approval = context.agent!.approval!;
        for (const write of [() => ((approval.approver as { id: string }).id = "mo"), () => ((approval.approver as { kind: string }).kind = "service")]) {
          try {
            write();
            attempts.push("written");
          } catch {
            attempts.push("refused");
          }
        }
        return { approver: approval.approver.id };
      },
    });
    const { runtime, events } = grantRuntime({ refund });
    const issued = await runtime.grants.issue({ capabilityId: "refund", actor: dana, surface: "direct", issuers: [priya], grant: grant({ uses: 2 }) });

    for (let i = 0; i < 2; i++) {
      const result = await runtime.invoke("refund", { customerId: "c_ada", amount: 10 }, { actor: dana, context });
      expect(result).toMatchObject({ status: "completed", output: { approver: "priya" } });
    }
    expect(attempts).toEqual(["refused", "refused", "refused", "refused"]);
    const approvers = events.filter((e) => e.type === "capability.approved").map((e) => e.actor);
    expect(approvers).toEqual([{ id: "priya", kind: "user" }, { id: "priya", kind: "user" }]);
    expect((await runtime.grants.get(issued.id))!).toMatchObject({ issuers: [{ id: "priya", kind: "user" }], usesLeft: 0, status: "exhausted" });
    // Spent: the next call asks, whatever the handler tried.
    approvalOf(await runtime.invoke("refund", { customerId: "c_ada", amount: 10 }, { actor: dana, context }));
  });

  it("SI-13: a coordinator whose useGrant is wrapped is asked through the wrapper: a refusing wrapper covers nothing", async () => {
    const inner = createInMemoryApprovalCoordinator();
    const asked: string[] = [];
    // Spread, so every other function is still the in-memory store's own.
    const wrapped: ApprovalCoordinator = {
      ...inner,
      useGrant: async (id, use) => {
        asked.push(id);
        return null;
      },
    };
    const cap = refunds();
    const { runtime } = grantRuntime({ refund: cap.procedure }, { approvals: { coordinator: wrapped, seal: false } });
    const issued = await runtime.grants.issue({ capabilityId: "refund", actor: dana, surface: "direct", issuers: [priya], grant: grant({ uses: 3 }) });

    for (let i = 0; i < 3; i++) approvalOf(await runtime.invoke("refund", { customerId: "c_ada", amount: 10 }, { actor: dana, context }));
    expect(asked).toEqual([issued.id, issued.id, issued.id]);
    expect(cap.ran).toHaveLength(0);
    expect((await runtime.grants.get(issued.id))!.usesLeft).toBe(3);
  });

  it("SI-13: a coordinator whose listGrants is wrapped is asked through the wrapper: one that lists nothing covers nothing", async () => {
    const inner = createInMemoryApprovalCoordinator();
    let listed = 0;
    const wrapped: ApprovalCoordinator = {
      ...inner,
      listGrants: async (filter) => {
        listed++;
        return filter?.active === true ? [] : inner.listGrants(filter);
      },
    };
    const cap = refunds();
    const { runtime } = grantRuntime({ refund: cap.procedure }, { approvals: { coordinator: wrapped, seal: false } });
    await runtime.grants.issue({ capabilityId: "refund", actor: dana, surface: "direct", issuers: [priya], grant: grant({ uses: 3 }) });

    approvalOf(await runtime.invoke("refund", { customerId: "c_ada", amount: 10 }, { actor: dana, context }));
    expect(listed).toBe(1);
    expect(cap.ran).toHaveLength(0);
  });

  it("SI-13: an input with no canonical form is APPROVAL_UNSERIALIZABLE_INPUT under a live grant too, and takes no use", async () => {
    const cap = refunds({ schema: z.looseObject({ customerId: z.string(), amount: z.number() }) });
    const { runtime } = grantRuntime({ refund: cap.procedure });
    const issued = await runtime.grants.issue({ capabilityId: "refund", actor: dana, surface: "direct", issuers: [priya], grant: grant({ uses: 3 }) });

    const result = await runtime.invoke("refund", { customerId: "c_ada", amount: 10, tags: new Map([["a", 1]]) }, { actor: dana, context });
    expect(errorOf(result).code).toBe("APPROVAL_UNSERIALIZABLE_INPUT");
    expect(cap.ran).toHaveLength(0);
    expect((await runtime.grants.get(issued.id))!.usesLeft).toBe(3);
  });

  it("SI-13: grants of another principal on the same capability never cover, however many there are", async () => {
    const cap = refunds();
    const { runtime } = grantRuntime({ refund: cap.procedure });
    for (let i = 0; i < 5; i++) {
      await runtime.grants.issue({ capabilityId: "refund", actor: mo, surface: "direct", issuers: [priya], grant: grant({ uses: 3 }) });
    }
    // Same id, another kind: not the principal either.
    await runtime.grants.issue({ capabilityId: "refund", actor: { id: "dana", kind: "service" }, surface: "direct", issuers: [priya], grant: grant({ uses: 3 }) });

    approvalOf(await runtime.invoke("refund", { customerId: "c_ada", amount: 10 }, { actor: dana, context }));
    expect(cap.ran).toHaveLength(0);
    expect((await runtime.grants.list({ active: true })).every((record) => record.usesLeft === 3)).toBe(true);
  });
});
