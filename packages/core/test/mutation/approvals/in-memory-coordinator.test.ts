// Raised from the mutation run: list order on equal timestamps, and absent fields staying absent.
import { describe, expect, it } from "vitest";
import { createInMemoryApprovalCoordinator } from "../../../src/approvals/in-memory-coordinator.js";
import { contractClock, makeApprovalRequest } from "../../../../../test-fixtures/approval-coordinator-contract.js";

describe("createInMemoryApprovalCoordinator", () => {
  it("lists records requested at the same instant by id, whatever the creation order (postgres.md §5.3)", async () => {
    const clock = contractClock("2030-01-01T00:00:00.000Z");
    const coordinator = createInMemoryApprovalCoordinator({ now: clock.now });
    for (const id of ["apr_c", "apr_a", "apr_d", "apr_b"]) await coordinator.create(makeApprovalRequest(clock.now, { id }));
    expect((await coordinator.list()).map((r) => r.id)).toEqual(["apr_a", "apr_b", "apr_c", "apr_d"]);
    // Time still orders first: a later request with a smaller id comes last.
    clock.advance(1);
    await coordinator.create(makeApprovalRequest(clock.now, { id: "apr_0" }));
    expect((await coordinator.list()).map((r) => r.id)).toEqual(["apr_a", "apr_b", "apr_c", "apr_d", "apr_0"]);
  });

  it("leaves decision and consumedByExecutionId absent until they happen", async () => {
    const clock = contractClock("2030-01-01T00:00:00.000Z");
    const coordinator = createInMemoryApprovalCoordinator({ now: clock.now });
    const request = makeApprovalRequest(clock.now);
    await coordinator.create(request);
    const pending = (await coordinator.get(request.id))!;
    expect(Object.keys(pending)).not.toContain("decision");
    expect(Object.keys(pending)).not.toContain("consumedByExecutionId");
    const approved = await coordinator.decide(request.id, { status: "approved", approver: { id: "user_manager", kind: "user" } });
    expect(Object.keys(approved)).toContain("decision");
    expect(Object.keys(approved)).not.toContain("consumedByExecutionId");
    const consumed = await coordinator.markConsumed(request.id, "exe_1");
    expect(consumed.consumedByExecutionId).toBe("exe_1");
  });
});
