// An in-memory approval store whose reads an attacker rewrites: what resume and a listing see is `tamper(stored)`.
import { createInMemoryApprovalCoordinator, type ApprovalCoordinator, type ApprovalRecord } from "@orpc-agent/core";

export type Tamper = (record: ApprovalRecord) => ApprovalRecord;

export function tamperable(inner: ReturnType<typeof createInMemoryApprovalCoordinator> = createInMemoryApprovalCoordinator()) {
  let tamper: Tamper | undefined;
  const coordinator: ApprovalCoordinator = {
    create: (request) => inner.create(request),
    async get(id) {
      const record = await inner.get(id);
      return record === null || tamper === undefined ? record : tamper(structuredClone(record));
    },
    decide: (id, decision) => inner.decide(id, decision),
    markConsumed: (id, executionId) => inner.markConsumed(id, executionId),
    // A listing shows the same rewritten rows as `get`.
    list: async (filter) => (await inner.list(filter)).map((record) => (tamper === undefined ? record : tamper(structuredClone(record)))),
  };
  return { coordinator, inner, set: (t: Tamper | undefined) => void (tamper = t) };
}
