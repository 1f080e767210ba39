import { CapabilityError, type ExecutionResult } from "@orpc-agent/core";
import { describe, expect, it } from "vitest";
import { createAgentTestRuntime, fakeActor, testClock } from "../src/index.js";
import { buildShop } from "./shop.js";

const manager = fakeActor({ id: "u_manager" });

function errorOf(result: ExecutionResult) {
  if (result.status !== "failed" && result.status !== "cancelled") throw new Error(`expected a failure, got ${result.status}`);
  return result.error;
}

async function requestRefund(t: ReturnType<typeof createAgentTestRuntime>, amount = 5): Promise<string> {
  const result = await t.invoke("orders.refund", { id: "o1", amount });
  if (result.status !== "approval-required") throw new Error(`expected approval-required, got ${result.status}`);
  return result.approval.id;
}

describe("t.approvals lifecycle", () => {
  it("approve → resume completes once; a second resume is APPROVAL_CONSUMED; approving again resolves silently", async () => {
    const { registry, calls } = buildShop();
    const t = createAgentTestRuntime({ registry });
    const id = await requestRefund(t);
    expect((await t.approvals.pending()).map((record) => record.id)).toEqual([id]);

    await t.approvals.approve(id, manager);
    expect(await t.approvals.pending()).toEqual([]);
    expect(await t.resume(id)).toMatchObject({ status: "completed", output: { refunded: 5, approvedBy: "u_manager" } });
    expect(errorOf(await t.resume(id)).code).toBe("APPROVAL_CONSUMED");
    expect(calls.refund).toBe(1);

    await expect(t.approvals.approve(id, manager)).resolves.toBeUndefined();
    await expect(t.approvals.reject(id, manager)).resolves.toBeUndefined();
    expect((await t.approvals.get(id))?.status).toBe("consumed");
    expect(t.audit.ofType("capability.approved").map((event) => event.actor)).toEqual([{ id: "u_manager", kind: "user" }]);
  });

  it("SI-4: approve by the requester rejects APPROVAL_SELF_APPROVAL, the record stays pending, another approver then succeeds", async () => {
    const { registry } = buildShop();
    const t = createAgentTestRuntime({ registry });
    const id = await requestRefund(t);

    const refusal = await t.approvals.approve(id, t.defaultActor).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(CapabilityError);
    expect((refusal as CapabilityError).code).toBe("APPROVAL_SELF_APPROVAL");
    expect((await t.approvals.get(id))?.status).toBe("pending");
    expect(t.audit.ofType("capability.approved")).toEqual([]);

    await t.approvals.approve(id);
    expect((await t.resume(id)).status).toBe("completed");
  });

  it("expiry follows the test clock: approve resolves silently on an expired record and resume is APPROVAL_EXPIRED", async () => {
    const { registry, calls } = buildShop();
    const clock = testClock("2030-05-01T09:00:00.000Z");
    const t = createAgentTestRuntime({ registry, clock });
    const id = await requestRefund(t);
    expect((await t.approvals.get(id))?.expiresAt.toISOString()).toBe("2030-05-01T09:15:00.000Z");

    clock.advance("15m");
    expect((await t.approvals.get(id))?.status).toBe("pending");
    clock.advance(1);
    await expect(t.approvals.approve(id, manager)).resolves.toBeUndefined();
    expect((await t.approvals.get(id))?.status).toBe("expired");
    expect(errorOf(await t.resume(id)).code).toBe("APPROVAL_EXPIRED");
    expect(calls.refund).toBe(0);
  });

  it("reject → resume is APPROVAL_REJECTED and the rejection is audited under the approver", async () => {
    const { registry, calls } = buildShop();
    const t = createAgentTestRuntime({ registry });
    const id = await requestRefund(t);
    await t.approvals.reject(id, manager);
    expect(errorOf(await t.resume(id)).code).toBe("APPROVAL_REJECTED");
    expect(t.audit.ofType("capability.rejected").map((event) => [event.actor.id, event.data.approvalId])).toEqual([["u_manager", id]]);
    expect(calls.refund).toBe(0);
  });

  it("other failures reject: an unknown approval id, or an ill-formed approver", async () => {
    const { registry } = buildShop();
    const t = createAgentTestRuntime({ registry });
    await expect(t.approvals.approve("apr_unknown")).rejects.toMatchObject({ code: "INTERNAL_ERROR", stage: "approval", cause: new Error('Approval "apr_unknown" was not found') });
    const id = await requestRefund(t);
    await expect(t.approvals.approve(id, { id: "", kind: "user" })).rejects.toMatchObject({ code: "UNAUTHENTICATED", stage: "approval" });
    expect((await t.approvals.get(id))?.status).toBe("pending");
  });

  it('"auto-approve" decides inline as auto-approver, audited, and the operation completes in the same call', async () => {
    const { registry } = buildShop();
    const t = createAgentTestRuntime({ registry, approvals: "auto-approve" });
    const result = await t.invoke("orders.refund", { id: "o1", amount: 7 });
    expect(result).toMatchObject({ status: "completed", output: { refunded: 7, approvedBy: "auto-approver" } });
    expect(t.audit.ofType("capability.approved").map((event) => event.actor)).toEqual([{ id: "auto-approver", kind: "automation" }]);
    expect(await t.approvals.pending()).toEqual([]);
  });

  it('"auto-reject" fails APPROVAL_REJECTED inline, and self-approval stays meaningful for an actor named auto-approver', async () => {
    const { registry, calls } = buildShop();
    const t = createAgentTestRuntime({ registry, approvals: "auto-reject" });
    expect(errorOf(await t.invoke("orders.refund", { id: "o1", amount: 7 })).code).toBe("APPROVAL_REJECTED");
    expect(t.audit.types()).toContain("capability.rejected");
    expect(calls.refund).toBe(0);

    const approving = createAgentTestRuntime({ registry, approvals: "auto-approve", actor: { id: "auto-approver", kind: "automation" } });
    expect(errorOf(await approving.invoke("orders.refund", { id: "o1", amount: 7 })).code).toBe("APPROVAL_SELF_APPROVAL");
  });
});
