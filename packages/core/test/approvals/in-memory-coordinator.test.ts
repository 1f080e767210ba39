import { describe, expect, it } from "vitest";
import { createInMemoryApprovalCoordinator } from "../../src/approvals/in-memory-coordinator.js";
import type { ApprovalDecision } from "../../src/approvals/types.js";
import {
  contractClock,
  describeApprovalCoordinatorContract,
  makeApprovalRequest,
} from "../../../../test-fixtures/approval-coordinator-contract.js";

describeApprovalCoordinatorContract("SI-5: the in-memory coordinator passes the contract suite", async (now) =>
  createInMemoryApprovalCoordinator({ now }),
);

const MANAGER = { id: "user_manager", kind: "user" } as const;

describe("createInMemoryApprovalCoordinator", () => {
  it("returns a Date inside the input as its ISO string, from create, get and list (core.md §15 item 10)", async () => {
    const clock = contractClock("2030-01-01T00:00:00.000Z");
    const coordinator = createInMemoryApprovalCoordinator({ now: clock.now });
    const at = new Date("2030-05-06T07:08:09.010Z");
    const request = makeApprovalRequest(clock.now, { input: { at, nested: { when: [at] } } });
    const expected = { at: "2030-05-06T07:08:09.010Z", nested: { when: ["2030-05-06T07:08:09.010Z"] } };

    expect((await coordinator.create(request)).input).toStrictEqual(expected);
    expect((await coordinator.get(request.id))!.input).toStrictEqual(expected);
    expect((await coordinator.list())[0]!.input).toStrictEqual(expected);
    // The top-level Date input also comes back as a string, and the caller's Date is untouched.
    const topLevel = makeApprovalRequest(clock.now, { input: at });
    expect((await coordinator.create(topLevel)).input).toBe("2030-05-06T07:08:09.010Z");
    expect(at.toISOString()).toBe("2030-05-06T07:08:09.010Z");
  });

  it("keeps an absent input absent and a null input null", async () => {
    const clock = contractClock("2030-01-01T00:00:00.000Z");
    const coordinator = createInMemoryApprovalCoordinator({ now: clock.now });
    const absent = makeApprovalRequest(clock.now, { input: undefined });
    const nulled = makeApprovalRequest(clock.now, { input: null });
    await coordinator.create(absent);
    await coordinator.create(nulled);
    expect((await coordinator.get(absent.id))!.input).toBeUndefined();
    expect((await coordinator.get(nulled.id))!.input).toBeNull();
  });

  it("uses the system clock when no now is given", async () => {
    const coordinator = createInMemoryApprovalCoordinator();
    const past = makeApprovalRequest(new Date(Date.now() - 60 * 60_000));
    const fresh = makeApprovalRequest(new Date());
    await coordinator.create(past);
    await coordinator.create(fresh);
    expect((await coordinator.get(past.id))!.status).toBe("expired");
    const before = Date.now();
    const decided = await coordinator.decide(fresh.id, { status: "approved", approver: MANAGER });
    expect(decided.decision!.decidedAt.getTime()).toBeGreaterThanOrEqual(before);
    expect(decided.decision!.decidedAt.getTime()).toBeLessThanOrEqual(Date.now());
  });

  it("names the approval id in its errors (a decide refusal's in its cause, under a typed code)", async () => {
    const clock = contractClock("2030-01-01T00:00:00.000Z");
    const coordinator = createInMemoryApprovalCoordinator({ now: clock.now });
    const request = makeApprovalRequest(clock.now, { id: "apr_named" });
    await coordinator.create(request);
    await expect(coordinator.create(request)).rejects.toThrow('Approval "apr_named" already exists');
    await expect(coordinator.get("apr_missing")).resolves.toBeNull();
    await expect(coordinator.decide("apr_missing", { status: "approved", approver: MANAGER })).rejects.toMatchObject({
      code: "INTERNAL_ERROR",
      stage: "approval",
      cause: new Error('Approval "apr_missing" was not found'),
    });
    await expect(coordinator.markConsumed("apr_named", "exe_1")).rejects.toThrow(
      'Approval "apr_named" cannot be consumed (status: pending)',
    );
    await coordinator.decide("apr_named", { status: "approved", approver: MANAGER });
    await expect(coordinator.decide("apr_named", { status: "rejected", approver: MANAGER })).rejects.toMatchObject({
      code: "APPROVAL_ALREADY_DECIDED",
      cause: new Error('Approval "apr_named" is not pending (status: approved)'),
    });
    await coordinator.markConsumed("apr_named", "exe_1");
    await expect(coordinator.markConsumed("apr_named", "exe_2")).rejects.toThrow(
      'Approval "apr_named" cannot be consumed (status: consumed, consumed by exe_1)',
    );
  });

  it("reports an expired record as such when deciding it", async () => {
    const clock = contractClock("2030-01-01T00:00:00.000Z");
    const coordinator = createInMemoryApprovalCoordinator({ now: clock.now });
    const request = makeApprovalRequest(clock.now, { id: "apr_late" });
    await coordinator.create(request);
    clock.advance(15 * 60_000 + 1);
    await expect(coordinator.decide("apr_late", { status: "approved", approver: MANAGER })).rejects.toMatchObject({
      code: "APPROVAL_EXPIRED",
      cause: new Error('Approval "apr_late" is not pending (status: expired)'),
    });
  });

  it("validates the decision before looking the id up", async () => {
    const coordinator = createInMemoryApprovalCoordinator();
    await expect(
      coordinator.decide("apr_missing", { status: "later", approver: MANAGER } as unknown as ApprovalDecision),
    ).rejects.toMatchObject({ code: "INPUT_INVALID", details: { issues: [{ path: ["status"] }] }, cause: new Error('Invalid decision status "later"') });
    await expect(coordinator.decide("apr_missing", null as unknown as ApprovalDecision)).rejects.toMatchObject({ code: "INPUT_INVALID" });
  });

  it("keeps only the declared decision fields (SI-6)", async () => {
    const clock = contractClock("2030-01-01T00:00:00.000Z");
    const coordinator = createInMemoryApprovalCoordinator({ now: clock.now });
    const request = makeApprovalRequest(clock.now);
    await coordinator.create(request);
    const decided = await coordinator.decide(request.id, {
      status: "approved",
      approver: MANAGER,
      decidedAt: new Date(0),
      status2: "rejected",
    } as unknown as ApprovalDecision);
    expect(Object.keys(decided.decision!).sort()).toEqual(["approver", "decidedAt", "status"]);
    expect(decided.decision!.decidedAt.getTime()).toBe(clock.now().getTime());
  });

  it("stores only request fields on create, always as pending", async () => {
    const clock = contractClock("2030-01-01T00:00:00.000Z");
    const coordinator = createInMemoryApprovalCoordinator({ now: clock.now });
    const request = {
      ...makeApprovalRequest(clock.now),
      status: "approved",
      decision: { status: "approved", approver: MANAGER, decidedAt: new Date(0) },
      consumedByExecutionId: "exe_forged",
    };
    const created = await coordinator.create(request);
    expect(created.status).toBe("pending");
    expect(created.decision).toBeUndefined();
    expect(created.consumedByExecutionId).toBeUndefined();
    await expect(coordinator.markConsumed(request.id, "exe_1")).rejects.toThrow(/cannot be consumed/);
  });

  it("lists oldest first, then by id", async () => {
    const clock = contractClock("2030-01-01T00:00:00.000Z");
    const coordinator = createInMemoryApprovalCoordinator({ now: clock.now });
    const later = makeApprovalRequest(new Date("2030-01-01T00:00:02.000Z"), { id: "apr_a" });
    const earlierB = makeApprovalRequest(new Date("2030-01-01T00:00:01.000Z"), { id: "apr_c" });
    const earlierA = makeApprovalRequest(new Date("2030-01-01T00:00:01.000Z"), { id: "apr_b" });
    for (const request of [later, earlierB, earlierA]) await coordinator.create(request);
    expect((await coordinator.list()).map((r) => r.id)).toEqual(["apr_b", "apr_c", "apr_a"]);
  });
});
