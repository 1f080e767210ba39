import { CapabilityError, type Actor, type ApprovalCoordinator, type ApprovalDecision, type ApprovalRecord } from "@orpc-agent/core";

/** The approver `approve`/`reject` use when none is given; never a requester `fakeActor()` makes by default. */
export const TEST_APPROVER: Actor = Object.freeze({ id: "test-approver", kind: "user" });

export type ApprovalShortcuts = {
  /** Records currently `pending` (expired ones excluded). */
  pending(): Promise<ApprovalRecord[]>;
  /** Approves; resolves silently when the record is no longer pending or has expired. */
  approve(id: string, approver?: Actor): Promise<void>;
  /** Rejects; resolves silently when the record is no longer pending or has expired. */
  reject(id: string, approver?: Actor): Promise<void>;
};

/**
 * `pending/approve/reject` over a `decide` path and the coordinator that stores the records. A lost race or a
 * lapsed record is not a test failure: the test asserts `APPROVAL_EXPIRED`/`APPROVAL_CONSUMED` at resume instead
 * (docs/architecture/spec/adapters.md#adapters-4). Detection reads the record state, never the error message (decided there).
 */
export function createApprovalShortcuts(
  decide: (id: string, decision: ApprovalDecision) => Promise<unknown>,
  coordinator: ApprovalCoordinator,
): ApprovalShortcuts {
  const decideQuietly = async (id: string, status: ApprovalDecision["status"], approver: Actor): Promise<void> => {
    try {
      await decide(id, { status, approver });
    } catch (error) {
      // A refused self-approval leaves the record pending; the test must see it (SI-4).
      if (CapabilityError.isInstance(error) && error.code === "APPROVAL_SELF_APPROVAL") throw error;
      const record = await coordinator.get(id);
      if (record !== null && record.status !== "pending") return;
      throw error;
    }
  };

  return {
    async pending() {
      if (typeof coordinator.list !== "function") {
        throw new TypeError("approvals.pending() needs a coordinator with list(); the given coordinator has none.");
      }
      return coordinator.list({ status: "pending" });
    },
    approve: (id, approver = TEST_APPROVER) => decideQuietly(id, "approved", approver),
    reject: (id, approver = TEST_APPROVER) => decideQuietly(id, "rejected", approver),
  };
}
