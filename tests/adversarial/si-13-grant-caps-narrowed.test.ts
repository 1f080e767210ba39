// SI-13: the caps bound every grant for the capability, so a redeploy that lowers or removes them must end the grants
// issued under the old caps: a grant of 20 uses must not outlive `maxUses` becoming 2, an actor-scoped grant must not
// outlive `scopes` dropping "actor", and no grant may cover a capability whose `approval.grants` is gone. The caps
// are part of the capability's definition (its drift entry), so any change to them changes the digest a grant binds,
// and adding or widening them is widening at resume as in `orpc-agent check`.
import { createInMemoryApprovalCoordinator, type AgentMeta } from "@orpc-agent/core";
import { describe, expect, it } from "vitest";
import { dana } from "./support/runtime.js";
import { CAPS, HOUR, grant, grantRuntime, priya, refunds } from "./support/grants.js";

const context = {};
const input = { customerId: "c_ada", amount: 10 };

async function issuedThenRedeployed(approval: AgentMeta["approval"]) {
  const coordinator = createInMemoryApprovalCoordinator();
  const { runtime } = grantRuntime({ refund: refunds().procedure }, { approvals: { coordinator } });
  const issued = await runtime.grants.issue({ capabilityId: "refund", actor: dana, surface: "direct", issuers: [priya], grant: grant({ uses: 20, scope: "actor" }) });
  expect((await runtime.invoke("refund", input, { actor: dana, context })).status).toBe("completed");
  const after = refunds({ approval });
  const redeployed = grantRuntime({ refund: after.procedure }, { approvals: { coordinator } }).runtime;
  return { issued, after, redeployed };
}

describe("grant caps are part of the definition a grant binds (SI-13)", () => {
  it("SI-13: a lower maxUses ends a grant issued with more uses", async () => {
    const { issued, after, redeployed } = await issuedThenRedeployed({ required: true, type: "manager", grants: { ...CAPS, scopes: [...CAPS.scopes], maxUses: 2 } });
    expect((await redeployed.invoke("refund", input, { actor: dana, context })).status).toBe("approval-required");
    expect(after.ran).toHaveLength(0);
    expect((await redeployed.grants.get(issued.id))!.status).toBe("void");
  });

  it("SI-13: a scope dropped from the caps ends the grants of that scope", async () => {
    const { after, redeployed } = await issuedThenRedeployed({ required: true, type: "manager", grants: { maxUses: 50, maxTtlMs: HOUR, scopes: ["conversation"] } });
    expect((await redeployed.invoke("refund", input, { actor: dana, context, conversationId: "chat_1" })).status).toBe("approval-required");
    expect(after.ran).toHaveLength(0);
  });

  it("SI-13: any change to the caps ends the grants issued under the old ones, even a grant the new caps would still allow", async () => {
    // The caps are part of the definition the grant binds; an issuer weighed the grant against the caps of the day.
    const { issued, after, redeployed } = await issuedThenRedeployed({ required: true, type: "manager", grants: { ...CAPS, scopes: [...CAPS.scopes], maxUses: 30 } });
    expect((await redeployed.invoke("refund", input, { actor: dana, context })).status).toBe("approval-required");
    expect(after.ran).toHaveLength(0);
    expect((await redeployed.grants.get(issued.id))!.status).toBe("void");
  });

  it("SI-13: adding grant caps is widening, so an approval asked before them is voided at resume and cannot be decided with a grant", async () => {
    const coordinator = createInMemoryApprovalCoordinator();
    const before = refunds({ approval: { required: true, type: "manager" } });
    const { runtime } = grantRuntime({ refund: before.procedure }, { approvals: { coordinator } });
    const asked = await runtime.invoke("refund", input, { actor: dana, context });
    expect(asked.status).toBe("approval-required");
    const approvalId = (asked as { approval: { id: string } }).approval.id;
    const after = refunds();
    const redeployed = grantRuntime({ refund: after.procedure }, { approvals: { coordinator } }).runtime;
    await expect(redeployed.approvals.decide(approvalId, { status: "approved", approver: priya, grant: grant() })).rejects.toMatchObject({ code: expect.stringMatching(/^GRANT_/) });
    expect((await redeployed.approvals.get(approvalId))!.status).toBe("pending");
    await redeployed.approvals.decide(approvalId, { status: "approved", approver: priya });
    const resumed = await redeployed.resume(approvalId, { context });
    expect(resumed.status).toBe("failed");
    expect((resumed as { error: { code: string } }).error.code).toBe("POLICY_DENIED");
    expect(after.ran).toHaveLength(0);
  });

  it("SI-13: removing `approval.grants` ends every grant: nothing covers the capability", async () => {
    const { issued, after, redeployed } = await issuedThenRedeployed({ required: true, type: "manager" });
    expect((await redeployed.invoke("refund", input, { actor: dana, context })).status).toBe("approval-required");
    expect(after.ran).toHaveLength(0);
    expect(await redeployed.grants.list({ actor: dana, active: true })).not.toContainEqual(expect.objectContaining({ id: issued.id }));
  });
});
