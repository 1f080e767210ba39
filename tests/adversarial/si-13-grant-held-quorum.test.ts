// SI-13 (R10): a call a grant covered holds a quorum for the execution-phase demands that follow. That quorum must
// count only the issuers a quorum counts (four eyes: people other than the principal and its acting agent), or a
// grant one outside approver issued together with the principal would meet a later quorum-2 demand on its own.
import { definePolicy, requireApproval, type Actor } from "@orpc-agent/core";
import { describe, expect, it } from "vitest";
import { dana } from "./support/runtime.js";
import { CAPS, grant, grantRuntime, priya, refunds, sam } from "./support/grants.js";

const context = {};
const input = { customerId: "c_ada", amount: 10 };
const caps = () => ({ ...CAPS, scopes: [...CAPS.scopes] });
const fourEyes = (type: string) =>
  definePolicy("four-eyes-at-execution", () => requireApproval({ reason: "Two people.", approvalType: type, quorum: 2 }), { phases: ["execution"] });

describe("the quorum a grant holds for execution-phase demands (SI-13, R10)", () => {
  it("SI-13: a grant the principal issued with one approver does not meet a later quorum-2 demand: the call asks", async () => {
    const cap = refunds({ approval: { required: true, type: "confirmation", grants: caps() } });
    const { runtime } = grantRuntime({ refund: cap.procedure }, { approvals: { requesterConfirmable: ["confirmation"] }, policies: [fourEyes("confirmation")] });
    // Valid on its own: at quorum 1 the requester may confirm a requester-confirmable type herself.
    const own = await runtime.grants.issue({ capabilityId: "refund", actor: dana, surface: "direct", issuers: [dana, priya], grant: grant({ uses: 5 }) });
    expect(own.issuers.map((issuer) => issuer.id)).toEqual(["dana", "priya"]);
    const result = await runtime.invoke("refund", input, { actor: dana, context });
    expect(result.status).toBe("approval-required");
    expect(cap.ran).toHaveLength(0);
  });

  it("SI-13: the acting agent counted beside one approver does not meet a later quorum-2 demand either", async () => {
    const cap = refunds();
    const { runtime } = grantRuntime({ refund: cap.procedure }, { approvals: { rejectSelfApproval: false }, policies: [fourEyes("manager")] });
    const viaBot: Actor = { ...dana, via: { id: "support-bot" } };
    await runtime.grants.issue({ capabilityId: "refund", actor: viaBot, surface: "direct", issuers: [{ id: "support-bot", kind: "automation" }, priya], grant: grant({ uses: 5 }) });
    expect((await runtime.invoke("refund", input, { actor: viaBot, context })).status).toBe("approval-required");
    expect(cap.ran).toHaveLength(0);
  });

  it("SI-13: two approvers other than the principal do meet it, on one use", async () => {
    const cap = refunds();
    const { runtime } = grantRuntime({ refund: cap.procedure }, { policies: [fourEyes("manager")] });
    const two = await runtime.grants.issue({ capabilityId: "refund", actor: dana, surface: "direct", issuers: [priya, sam], grant: grant({ uses: 5 }) });
    expect((await runtime.invoke("refund", input, { actor: dana, context })).status).toBe("completed");
    expect((await runtime.grants.get(two.id))!.usesLeft).toBe(4);
  });
});
