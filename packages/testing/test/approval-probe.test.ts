import { createAgentRuntime, defineGovernance, type ExecutionResult } from "@orpc-agent/core";
import { describe, expect, it, vi } from "vitest";
import { describeApprovalCoordinatorContract } from "../../../test-fixtures/approval-coordinator-contract.js";
import { approvalProbe, capturedAudit, fakeActor, testClock } from "../src/index.js";
import { buildShop } from "./shop.js";

// Required test (11), docs/architecture/spec/adapters.md#adapters-4: the probe is a coordinator like any other (docs/architecture/spec/adapters.md#adapters-5-2), run unchanged.
describeApprovalCoordinatorContract("approvalProbe", async (now) => approvalProbe({ now }));

const requester = fakeActor({ id: "u_requester" });

async function setup() {
  const clock = testClock();
  const probe = approvalProbe({ now: clock.now });
  const audit = capturedAudit();
  const { registry } = buildShop();
  // The runtime cannot tell the probe is in memory: it warns once per governance that the store is unsealed (W4).
  const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
  const runtime = createAgentRuntime({ governance: defineGovernance({ registry }), approvals: { coordinator: probe }, audit, now: clock.now });
  const warnings = warn.mock.calls.map((args) => String(args[0]));
  warn.mockRestore();
  expect(warnings).toEqual([expect.stringMatching(/^\[orpc-agent\] approvals for [\w., ]*orders\.refund[\w., ]* are kept by a persistent coordinator without approvals\.seal/)]);
  const result: ExecutionResult = await runtime.invoke("orders.refund", { id: "o1", amount: 4 }, { actor: requester, context: {}, surface: "test" });
  if (result.status !== "approval-required") throw new Error(`expected approval-required, got ${result.status}`);
  return { clock, probe, audit, runtime, id: result.approval.id };
}

describe("approvalProbe shortcuts", () => {
  it("pending lists the runtime's requests; approve decides without a decision event; resume completes", async () => {
    const { probe, audit, runtime, id } = await setup();
    expect((await probe.pending()).map((record) => record.id)).toEqual([id]);
    await probe.approve(id, fakeActor({ id: "u_manager" }));
    expect(await probe.pending()).toEqual([]);
    expect(audit.types()).not.toContain("capability.approved");
    expect(await runtime.resume(id, { context: {} })).toMatchObject({ status: "completed", output: { refunded: 4 } });
  });

  it("bypasses the decide-time self-approval refusal; the runtime still refuses the record at resume (R4)", async () => {
    const { probe, runtime, id } = await setup();
    await probe.approve(id, requester);
    expect((await probe.get(id))?.status).toBe("approved");
    const result = await runtime.resume(id, { context: {} });
    expect(result.status === "failed" && result.error.code).toBe("APPROVAL_SELF_APPROVAL");
  });

  it("approve/reject resolve silently once the record is decided or expired, and reject other failures", async () => {
    const { probe, id } = await setup();
    await probe.reject(id);
    expect((await probe.get(id))?.decision).toMatchObject({ status: "rejected", approver: { id: "test-approver", kind: "user" } });
    await expect(probe.approve(id)).resolves.toBeUndefined();
    expect((await probe.get(id))?.status).toBe("rejected");

    const expiring = await setup();
    expiring.clock.advance("16m");
    await expect(expiring.probe.approve(expiring.id)).resolves.toBeUndefined();
    expect((await expiring.probe.get(expiring.id))?.status).toBe("expired");
    await expect(probe.approve("apr_missing")).rejects.toMatchObject({ code: "INTERNAL_ERROR", stage: "approval", cause: new Error('Approval "apr_missing" was not found') });
  });
});
