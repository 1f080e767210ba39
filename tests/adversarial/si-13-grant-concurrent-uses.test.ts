// SI-13: each use of a standing grant is consumed exactly once, atomically with its check: concurrent calls never
// run more handlers than the grant has uses, never spend past its budget, and none is covered once a revoke returned.
import { describe, expect, it } from "vitest";
import { approvalOf, dana } from "./support/runtime.js";
import { grant, grantRuntime, priya, refunds } from "./support/grants.js";

const context = {};

describe("concurrent uses of one grant (SI-13)", () => {
  it("SI-13: 50 concurrent calls on a 3-use grant run exactly 3 handlers; the other 47 ask for approval", async () => {
    const cap = refunds();
    const { runtime, events } = grantRuntime({ refund: cap.procedure });
    const issued = await runtime.grants.issue({ capabilityId: "refund", actor: dana, surface: "direct", issuers: [priya], grant: grant({ uses: 3 }) });

    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => runtime.invoke("refund", { customerId: "c_ada", amount: i }, { actor: dana, context })));
    expect(results.filter((r) => r.status === "completed")).toHaveLength(3);
    expect(results.filter((r) => r.status === "approval-required")).toHaveLength(47);
    expect(cap.ran).toHaveLength(3);
    expect((await runtime.grants.get(issued.id))!).toMatchObject({ usesLeft: 0, status: "exhausted" });
    const covered = events.filter((e) => e.type === "capability.approved" && "grant" in e.data && e.data.grant !== undefined);
    expect(covered.map((e) => (e.data as { grant: { usesLeft: number } }).grant.usesLeft).sort()).toEqual([0, 1, 2]);
    expect(covered.every((e) => e.actor.id === "priya" && e.executionId !== undefined)).toBe(true);
  });

  it("SI-13: a grant decided with an approval covers that call plus `uses` more, even when 50 race for them", async () => {
    const cap = refunds();
    const { runtime } = grantRuntime({ refund: cap.procedure });
    const approval = approvalOf(await runtime.invoke("refund", { customerId: "c_ada", amount: 10 }, { actor: dana, context }));
    const decided = await runtime.approvals.decide(approval.id, { status: "approved", approver: priya, grant: grant({ uses: 3 }) });
    expect(decided.status).toBe("approved");
    expect(decided.grant).toMatchObject({ usesLeft: 3, approvalId: approval.id, actor: { id: "dana" } });
    expect((await runtime.resume(approval.id, { context })).status).toBe("completed");

    const results = await Promise.all(Array.from({ length: 50 }, () => runtime.invoke("refund", { customerId: "c_ada", amount: 10 }, { actor: dana, context })));
    expect(results.filter((r) => r.status === "completed")).toHaveLength(3);
    expect(cap.ran).toHaveLength(4);
  });

  it("SI-13: concurrent budget uses never overspend: amounts summed under max, whatever the interleaving", async () => {
    const cap = refunds();
    const { runtime } = grantRuntime({ refund: cap.procedure });
    const issued = await runtime.grants.issue({
      capabilityId: "refund",
      actor: dana,
      surface: "direct",
      issuers: [priya],
      grant: grant({ uses: 50, budget: { path: "/amount", max: 100 } }),
    });
    const amounts = Array.from({ length: 40 }, (_, i) => 7 + (i % 5));
    const results = await Promise.all(amounts.map((amount) => runtime.invoke("refund", { customerId: "c_ada", amount }, { actor: dana, context })));
    const spent = (cap.ran as { amount: number }[]).reduce((sum, input) => sum + input.amount, 0);
    expect(spent).toBeLessThanOrEqual(100);
    expect(results.filter((r) => r.status === "completed")).toHaveLength(cap.ran.length);
    const after = (await runtime.grants.get(issued.id))!;
    expect(after.spent).toBe(spent);
    expect(after.usesLeft).toBe(50 - cap.ran.length);
    // Too big for what is left: asks, and spends nothing.
    const big = await runtime.invoke("refund", { customerId: "c_ada", amount: 100 - spent + 1 }, { actor: dana, context });
    expect(big.status).toBe("approval-required");
    expect((await runtime.grants.get(issued.id))!.spent).toBe(spent);
  });

  it("SI-13: a use racing a revoke: no call is covered once revoke resolved; handlers ran only for uses taken before", async () => {
    const cap = refunds();
    const { runtime } = grantRuntime({ refund: cap.procedure });
    const issued = await runtime.grants.issue({ capabilityId: "refund", actor: dana, surface: "direct", issuers: [priya], grant: grant({ uses: 50 }) });
    const racing = Array.from({ length: 30 }, () => runtime.invoke("refund", { customerId: "c_ada", amount: 1 }, { actor: dana, context }));
    const revoked = await runtime.grants.revoke(issued.id, { by: priya, reason: "the customer disputed" });
    expect(revoked.status).toBe("revoked");
    const taken = 50 - revoked.usesLeft;

    const after = await Promise.all(Array.from({ length: 10 }, () => runtime.invoke("refund", { customerId: "c_ada", amount: 1 }, { actor: dana, context })));
    expect(after.every((r) => r.status === "approval-required")).toBe(true);
    const raced = await Promise.all(racing);
    expect(raced.filter((r) => r.status === "completed")).toHaveLength(taken);
    expect(cap.ran).toHaveLength(taken);
    expect((await runtime.grants.get(issued.id))!.usesLeft).toBe(revoked.usesLeft);
  });

  it("SI-13: two grants, one spent by a racing call: the loser falls through to the next grant, then to a normal suspension", async () => {
    const cap = refunds();
    const { runtime } = grantRuntime({ refund: cap.procedure });
    await runtime.grants.issue({ capabilityId: "refund", actor: dana, surface: "direct", issuers: [priya], grant: grant({ uses: 1 }) });
    await runtime.grants.issue({ capabilityId: "refund", actor: dana, surface: "direct", issuers: [priya], grant: grant({ uses: 1 }) });
    const results = await Promise.all(Array.from({ length: 3 }, () => runtime.invoke("refund", { customerId: "c_ada", amount: 1 }, { actor: dana, context })));
    expect(results.map((r) => r.status).sort()).toEqual(["approval-required", "completed", "completed"]);
    expect(cap.ran).toHaveLength(2);
  });
});
