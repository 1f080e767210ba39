import type { ApprovalCoordinator } from "../types.js";
import type { ApprovalSealer } from "./sealer.js";

/**
 * The coordinator the runtime uses when `approvals.seal` is set: every request is sealed before it is stored and
 * every decision made through the runtime is sealed against the stored request's seal. A decision written to the
 * store any other way carries no valid seal, so resume refuses it.
 */
export function sealingCoordinator(inner: ApprovalCoordinator, sealer: ApprovalSealer, now: () => Date): ApprovalCoordinator {
  const wrapped: ApprovalCoordinator = {
    async create(request) {
      return inner.create({ ...request, seal: await sealer.sealRequest(request) });
    },
    get: (id) => inner.get(id),
    async decide(id, decision) {
      const record = await inner.get(id);
      // No record, or one without a seal: the coordinator answers as it would (not found, not pending, ...) and
      // an unsealed decision never verifies later.
      const approver = (decision as { approver?: { id?: unknown; kind?: unknown } } | null)?.approver;
      const sealable = record !== null && typeof record.seal === "string" && typeof approver?.id === "string" && typeof approver.kind === "string";
      if (!sealable) return inner.decide(id, decision);
      const seal = await sealer.sealDecision(id, record.seal!, decision, now());
      return inner.decide(id, { ...decision, seal });
    },
    markConsumed: (id, executionId) => inner.markConsumed(id, executionId),
  };
  if (typeof inner.list === "function") {
    const list = inner.list.bind(inner);
    wrapped.list = (filter) => list(filter);
  }
  return wrapped;
}
