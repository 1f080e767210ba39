// SI-5 for shadow policies and drift (issue 30 part 1, ADR-027, ADR-028): moving a policy to shadow mode removes a
// control, so an approval asked for while it was enforced must not resume after the move; the drift classification
// that `orpc-agent check` and resume share must call every such move a widening, whatever the names line up to.
import { allow, createInMemoryApprovalCoordinator, definePolicy, deny, requireApproval, type AgentPolicy } from "@orpc-agent/core";
import { capabilityChanges, type CapabilityEntry } from "@orpc-agent/core/drift";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { approvalOf, base, build, dana, errorOf, meta, mo } from "./support/runtime.js";

function entry(policies: string[], shadowPolicies?: string[]): CapabilityEntry {
  return {
    id: "op",
    sideEffect: "write",
    risk: "high",
    expose: ["direct"],
    discovery: "discoverable",
    idempotent: false,
    tags: [],
    policies,
    ...(shadowPolicies === undefined ? {} : { shadowPolicies }),
    inputSchemaHash: null,
  };
}

const kinds = (before: CapabilityEntry, after: CapabilityEntry) => capabilityChanges(before, after).map((c) => c.kind);

describe("drift classification of mode moves (SI-5)", () => {
  it("SI-5: enforced → shadow is a widening, shadow → enforced a narrowing, a shadow alone neutral", () => {
    expect(kinds(entry(["limit"]), entry([], ["limit"]))).toEqual(["widening"]);
    expect(kinds(entry([], ["limit"]), entry(["limit"]))).toEqual(["narrowing"]);
    expect(kinds(entry(["limit"]), entry(["limit"], ["candidate"]))).toEqual(["neutral"]);
  });

  it("SI-5: duplicate names cannot hide a move to shadow: every enforced occurrence dropped is a widening", () => {
    // Two enforced copies, one moved to shadow: one control fewer.
    expect(kinds(entry(["limit", "limit"]), entry(["limit"], ["limit"]))).toContain("widening");
    // A shadow of the same name added beside the move does not cancel it.
    expect(kinds(entry(["limit"], ["limit"]), entry([], ["limit", "limit"]))).toContain("widening");
    // Swapping which one is enforced for a differently named shadow still drops "limit".
    expect(kinds(entry(["limit"], ["other"]), entry(["other"], ["limit"]))).toContain("widening");
  });
});

describe("an approval does not survive its policy moving to shadow (SI-5)", () => {
  function capability() {
    const ran = { count: 0 };
    const procedure = base
      .input(z.object({ amount: z.number() }))
      .meta({ agent: meta({ approval: { required: true } }) })
      .handler(({ input }) => (ran.count++, { paid: input.amount }));
    return { procedure, ran };
  }
  const limit = definePolicy("limit", () => allow());

  it("SI-5: a runtime policy moved to shadowPolicies between request and resume voids the approval, unconsumed", async () => {
    const coordinator = createInMemoryApprovalCoordinator();
    const cap = capability();
    const before = build({ defs: { op: cap.procedure }, policies: [limit], approvals: { coordinator } });
    const approval = approvalOf(await before.runtime.invoke("op", { amount: 5 }, { actor: dana, context: {} }));
    await before.runtime.approvals.decide(approval.id, { status: "approved", approver: mo });

    const shadowed = definePolicy("limit", () => allow(), { mode: "shadow" });
    const after = build({ defs: { op: cap.procedure }, policies: [shadowed], approvals: { coordinator } });
    expect(errorOf(await after.runtime.resume(approval.id, { context: {} })).code).toBe("POLICY_DENIED");
    expect(cap.ran.count).toBe(0);
    expect((await coordinator.get(approval.id))!.status).toBe("approved");
    // Back under the governance it was asked under, it resumes.
    expect(await before.runtime.resume(approval.id, { context: {} })).toMatchObject({ status: "completed" });
  });

  it("SI-5: a shadow policy made enforced between request and resume is a narrowing: resume runs it, and its deny holds", async () => {
    const coordinator = createInMemoryApprovalCoordinator();
    const cap = capability();
    const candidate: AgentPolicy = definePolicy("candidate", () => deny("too-much", "Denied."), { mode: "shadow" });
    const before = build({ defs: { op: cap.procedure }, policies: [candidate], approvals: { coordinator } });
    const approval = approvalOf(await before.runtime.invoke("op", { amount: 5 }, { actor: dana, context: {} }));
    await before.runtime.approvals.decide(approval.id, { status: "approved", approver: mo });

    const enforced = definePolicy("candidate", () => deny("too-much", "Denied."));
    const after = build({ defs: { op: cap.procedure }, policies: [enforced], approvals: { coordinator } });
    expect(errorOf(await after.runtime.resume(approval.id, { context: {} }))).toMatchObject({ code: "POLICY_DENIED", details: { policy: "candidate" } });
    expect(cap.ran.count).toBe(0);
  });

  it("SI-5: an approval-demanding policy moved to shadow is a widening too: the approval asked for by it does not resume", async () => {
    const coordinator = createInMemoryApprovalCoordinator();
    const cap = capability();
    const big = definePolicy("big", () => requireApproval({ reason: "Big." }));
    const before = build({ defs: { op: cap.procedure }, policies: [big], approvals: { coordinator } });
    const approval = approvalOf(await before.runtime.invoke("op", { amount: 5 }, { actor: dana, context: {} }));
    await before.runtime.approvals.decide(approval.id, { status: "approved", approver: mo });
    const after = build({ defs: { op: cap.procedure }, policies: [definePolicy("big", () => requireApproval({ reason: "Big." }), { mode: "shadow" })], approvals: { coordinator } });
    expect(errorOf(await after.runtime.resume(approval.id, { context: {} })).code).toBe("POLICY_DENIED");
    expect(cap.ran.count).toBe(0);
  });
});
