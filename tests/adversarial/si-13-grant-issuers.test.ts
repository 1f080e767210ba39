// SI-13: a grant never covers a call its issuers could not have approved one by one: the self-approval and acting-agent
// rules of SI-4, approval types, and quorums (demanded by the capability or by a policy, before or during execution).
import { allow, definePolicy, requireApproval, type Actor } from "@orpc-agent/core";
import { describe, expect, it } from "vitest";
import { approvalOf, dana, errorOf } from "./support/runtime.js";
import { CAPS, grant, grantRuntime, priya, refunds, sam } from "./support/grants.js";

const context = {};
const input = { customerId: "c_ada", amount: 10 };
const caps = () => ({ ...CAPS, scopes: [...CAPS.scopes] });

describe("who may issue a grant (SI-13)", () => {
  it("SI-13: a requester cannot issue herself a grant for a manager's approval type, by issue or by deciding with a grant", async () => {
    const cap = refunds();
    const { runtime, events } = grantRuntime({ refund: cap.procedure }, { approvals: { requesterConfirmable: ["confirmation"] } });
    await expect(runtime.grants.issue({ capabilityId: "refund", actor: dana, surface: "direct", issuers: [dana], grant: grant() })).rejects.toMatchObject({
      code: "GRANT_ISSUERS_INSUFFICIENT",
    });
    await expect(runtime.grants.issue({ capabilityId: "refund", actor: dana, surface: "direct", issuers: [{ ...dana, displayName: "Me" }, { id: "DANA", kind: "user" }], grant: grant() })).rejects.toMatchObject({
      code: "GRANT_ISSUERS_INSUFFICIENT",
    });
    // Naming a requester-confirmable type instead of the capability's own is refused too.
    await expect(
      runtime.grants.issue({ capabilityId: "refund", actor: dana, surface: "direct", issuers: [dana], types: ["confirmation"], grant: grant() }),
    ).rejects.toMatchObject({ code: "INPUT_INVALID" });
    const approval = approvalOf(await runtime.invoke("refund", input, { actor: dana, context }));
    await expect(runtime.approvals.decide(approval.id, { status: "approved", approver: dana, grant: grant() })).rejects.toMatchObject({ code: "APPROVAL_SELF_APPROVAL" });
    expect(await runtime.grants.list()).toEqual([]);
    expect(events.filter((e) => e.type === "grant.issued")).toEqual([]);
    expect((await runtime.invoke("refund", input, { actor: dana, context })).status).toBe("approval-required");
    expect(cap.ran).toHaveLength(0);
  });

  it("SI-13: a requester may grant herself only requester-confirmable types, which never cover a manager demand a policy adds", async () => {
    const bigNeedsManager = definePolicy("big-needs-manager", (req) => ((req.input as { amount: number }).amount > 100 ? requireApproval({ reason: "Big refund.", approvalType: "manager" }) : allow()), {
      phases: ["invocation"],
    });
    const cap = refunds({ approval: { required: true, type: "confirmation", grants: caps() } });
    const { runtime } = grantRuntime({ refund: cap.procedure }, { approvals: { requesterConfirmable: ["confirmation"] }, policies: [bigNeedsManager] });
    const own = await runtime.grants.issue({ capabilityId: "refund", actor: dana, surface: "direct", issuers: [dana], grant: grant({ uses: 5 }) });
    expect(own.types).toEqual(["confirmation"]);
    expect((await runtime.invoke("refund", input, { actor: dana, context })).status).toBe("completed");
    expect((await runtime.invoke("refund", { customerId: "c_ada", amount: 500 }, { actor: dana, context })).status).toBe("approval-required");
    await expect(
      runtime.grants.issue({ capabilityId: "refund", actor: dana, surface: "direct", issuers: [dana], types: ["confirmation", "manager"], grant: grant() }),
    ).rejects.toMatchObject({ code: "GRANT_ISSUERS_INSUFFICIENT" });
    expect(cap.ran).toHaveLength(1);
  });

  it("SI-13: the principal's acting agent, or anyone acting through it or the principal, cannot issue", async () => {
    const cap = refunds();
    const { runtime } = grantRuntime({ refund: cap.procedure });
    const viaBot: Actor = { ...dana, via: { id: "support-bot" } };
    const relays: Actor[] = [
      { id: "support-bot", kind: "automation" },
      { id: "priya", kind: "user", via: { id: "support-bot" } },
      { id: "priya", kind: "user", via: { id: "dana" } },
    ];
    for (const issuer of relays) {
      await expect(runtime.grants.issue({ capabilityId: "refund", actor: viaBot, surface: "direct", issuers: [issuer], grant: grant() }), JSON.stringify(issuer)).rejects.toMatchObject({
        code: "GRANT_ISSUERS_INSUFFICIENT",
      });
    }
    // With a real second person beside a relay, the relay still spoils the issue.
    await expect(runtime.grants.issue({ capabilityId: "refund", actor: viaBot, surface: "direct", issuers: [priya, relays[0]!], grant: grant() })).rejects.toMatchObject({
      code: "GRANT_ISSUERS_INSUFFICIENT",
    });
    for (const issuer of [{ id: "anon", kind: "anonymous" }, { id: "", kind: "user" }, { id: "x", kind: "robot" }] as Actor[]) {
      await expect(runtime.grants.issue({ capabilityId: "refund", actor: dana, surface: "direct", issuers: [issuer], grant: grant() })).rejects.toMatchObject({ code: "GRANT_ISSUERS_INSUFFICIENT" });
    }
    await expect(runtime.grants.issue({ capabilityId: "refund", actor: dana, surface: "direct", issuers: [], grant: grant() })).rejects.toMatchObject({ code: "GRANT_ISSUERS_INSUFFICIENT" });
    await expect(runtime.grants.issue({ capabilityId: "refund", actor: { id: "anyone", kind: "anonymous" }, surface: "direct", issuers: [priya], grant: grant() })).rejects.toMatchObject({
      code: "GRANT_NOT_ALLOWED",
    });
  });

  it("SI-13: a quorum-2 capability: one issuer, one person under two spellings, or the principal as second are refused; two people issue", async () => {
    const cap = refunds({ approval: { required: true, type: "manager", quorum: 2, grants: caps() } });
    const { runtime } = grantRuntime({ refund: cap.procedure });
    const issue = (issuers: Actor[]) => runtime.grants.issue({ capabilityId: "refund", actor: dana, surface: "direct", issuers, grant: grant() });
    for (const issuers of [[priya], [priya, { id: "PRIYA", kind: "user" }], [priya, { id: "pri\u200bya", kind: "service" }], [priya, dana]] as Actor[][]) {
      await expect(issue(issuers), JSON.stringify(issuers)).rejects.toMatchObject({ code: "GRANT_ISSUERS_INSUFFICIENT" });
    }
    expect((await runtime.invoke("refund", input, { actor: dana, context })).status).toBe("approval-required");
    await issue([priya, sam]);
    expect((await runtime.invoke("refund", input, { actor: dana, context })).status).toBe("completed");
  });

  it("SI-13: deciding a quorum request with a grant is refused and counts no vote", async () => {
    const cap = refunds({ approval: { required: true, type: "manager", quorum: 2, grants: caps() } });
    const { runtime, events } = grantRuntime({ refund: cap.procedure });
    const approval = approvalOf(await runtime.invoke("refund", input, { actor: dana, context }));
    await expect(runtime.approvals.decide(approval.id, { status: "approved", approver: priya, grant: grant() })).rejects.toMatchObject({ code: "GRANT_ISSUERS_INSUFFICIENT" });
    const record = (await runtime.approvals.get(approval.id))!;
    expect(record.status).toBe("pending");
    expect(record.approvals).toEqual([]);
    expect(events.filter((e) => e.type === "capability.approval_recorded" || e.type === "grant.issued")).toEqual([]);
  });

  it("SI-13: a quorum a policy demands is not met by a single issuer's grant", async () => {
    const twoForBig = definePolicy("two-for-big", (req) => ((req.input as { amount: number }).amount > 100 ? requireApproval({ reason: "Big.", approvalType: "manager", quorum: 2 }) : allow()), {
      phases: ["invocation"],
    });
    const cap = refunds();
    const { runtime } = grantRuntime({ refund: cap.procedure }, { policies: [twoForBig] });
    await runtime.grants.issue({ capabilityId: "refund", actor: dana, surface: "direct", issuers: [priya], grant: grant({ uses: 5 }) });
    expect((await runtime.invoke("refund", { customerId: "c_ada", amount: 500 }, { actor: dana, context })).status).toBe("approval-required");
    expect((await runtime.invoke("refund", input, { actor: dana, context })).status).toBe("completed");
    await runtime.grants.issue({ capabilityId: "refund", actor: dana, surface: "direct", issuers: [priya, sam], grant: grant({ uses: 5 }) });
    expect((await runtime.invoke("refund", { customerId: "c_ada", amount: 500 }, { actor: dana, context })).status).toBe("completed");
  });

  it("SI-13 (R10): an execution-phase demand for a type the grant lacks suspends the call; a grant covering it lets it run on one use", async () => {
    const cfoOverLimit = definePolicy("cfo-over-1000", (req) => ((req.input as { amount: number }).amount > 1000 ? requireApproval({ reason: "CFO.", approvalType: "cfo" }) : allow()), {
      phases: ["execution"],
    });
    const cap = refunds();
    const { runtime } = grantRuntime({ refund: cap.procedure }, { policies: [cfoOverLimit] });
    const managerOnly = await runtime.grants.issue({ capabilityId: "refund", actor: dana, surface: "direct", issuers: [priya], grant: grant({ uses: 5 }) });
    const big = await runtime.invoke("refund", { customerId: "c_ada", amount: 5000 }, { actor: dana, context });
    expect(approvalOf(big).types).toEqual(["manager", "cfo"]);
    expect(cap.ran).toHaveLength(0);
    await runtime.grants.revoke(managerOnly.id, { by: priya });

    const both = await runtime.grants.issue({ capabilityId: "refund", actor: dana, surface: "direct", issuers: [priya], types: ["manager", "cfo"], grant: grant({ uses: 5 }) });
    expect((await runtime.invoke("refund", { customerId: "c_ada", amount: 5000 }, { actor: dana, context })).status).toBe("completed");
    expect((await runtime.grants.get(both.id))!.usesLeft).toBe(4);
  });

  it("SI-13 (R10): a late approval an execution policy demands of an ungated capability is covered by a grant of that type", async () => {
    const cfoOverLimit = definePolicy("cfo-over-1000", (req) => ((req.input as { amount: number }).amount > 1000 ? requireApproval({ reason: "CFO.", approvalType: "cfo" }) : allow()), {
      phases: ["execution"],
    });
    const cap = refunds({ approval: { grants: caps() } });
    const { runtime } = grantRuntime({ refund: cap.procedure }, { policies: [cfoOverLimit] });
    expect((await runtime.invoke("refund", { customerId: "c_ada", amount: 5000 }, { actor: dana, context })).status).toBe("approval-required");
    const cfo = await runtime.grants.issue({ capabilityId: "refund", actor: dana, surface: "direct", issuers: [priya], types: ["cfo"], grant: grant({ uses: 1 }) });
    expect((await runtime.invoke("refund", { customerId: "c_ada", amount: 5000 }, { actor: dana, context })).status).toBe("completed");
    expect((await runtime.invoke("refund", { customerId: "c_ada", amount: 50 }, { actor: dana, context })).status).toBe("completed");
    expect((await runtime.grants.get(cfo.id))!.usesLeft).toBe(0);
    expect(cap.ran).toHaveLength(2);
  });

  it("SI-13: a grant covers before the inline handler is asked, and an issuer the rules now refuse covers nothing", async () => {
    const asked: string[] = [];
    const cap = refunds({ approval: { required: true, type: "confirmation", grants: caps() } });
    const inline = grantRuntime({ refund: cap.procedure }, {
      approvals: { requesterConfirmable: ["confirmation"], handler: async (req) => (asked.push(req.id), { status: "rejected", approver: priya }) },
    });
    await inline.runtime.grants.issue({ capabilityId: "refund", actor: dana, surface: "direct", issuers: [dana], grant: grant() });
    expect((await inline.runtime.invoke("refund", input, { actor: dana, context })).status).toBe("completed");
    expect(asked).toEqual([]);
    // The same stored grant behind a runtime that no longer lets requesters confirm: it covers nothing there.
    const strict = grantRuntime({ refund: cap.procedure }, { approvals: { coordinator: inline.coordinator } });
    expect((await strict.runtime.invoke("refund", input, { actor: dana, context })).status).toBe("approval-required");
  });

  it("SI-13: revoking needs an accountable actor; an unknown id is GRANT_NOT_FOUND", async () => {
    const cap = refunds();
    const { runtime, events } = grantRuntime({ refund: cap.procedure });
    const issued = await runtime.grants.issue({ capabilityId: "refund", actor: dana, surface: "direct", issuers: [priya], grant: grant() });
    await expect(runtime.grants.revoke(issued.id, { by: { id: "x", kind: "anonymous" } })).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
    await expect(runtime.grants.revoke("grt_nope", { by: priya })).rejects.toMatchObject({ code: "GRANT_NOT_FOUND" });
    expect((await runtime.grants.get(issued.id))!.status).toBe("active");
    const revoked = await runtime.grants.revoke(issued.id, { by: dana, reason: "changed my mind" });
    expect(revoked.revoked).toMatchObject({ by: { id: "dana" }, reason: "changed my mind" });
    await runtime.grants.revoke(issued.id, { by: priya });
    expect(events.filter((e) => e.type === "grant.revoked").map((e) => e.actor.id)).toEqual(["dana"]);
    expect(errorOf(await runtime.resume("grt_nope", { context })).code).toBe("INTERNAL_ERROR");
  });
});
