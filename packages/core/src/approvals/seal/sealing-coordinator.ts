import { approvalNotFoundError } from "../decide-refusals.js";
import type { ApprovalCoordinator, ApprovalRecord } from "../types.js";
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
      // A decision seal vouches for the request seal, not for what the approver was shown: sealing a decision on an
      // edited record would let the edit be undone after approval. Such a record is unknown here, as at resume (SI-8).
      if (!(await verifies(sealer, record))) throw approvalNotFoundError(id);
      const seal = await sealer.sealDecision(id, record.seal!, decision, now());
      return inner.decide(id, { ...decision, seal });
    },
    markConsumed: (id, executionId) => inner.markConsumed(id, executionId),
  };
  if (typeof inner.list === "function") {
    const list = inner.list.bind(inner);
    wrapped.list = (filter) => list(filter);
  }
  // A claim is no decision: nothing to seal (a forged claim only silences a best-effort notice).
  if (typeof inner.claimNotice === "function") {
    const claimNotice = inner.claimNotice.bind(inner);
    wrapped.claimNotice = (id, notice, at) => claimNotice(id, notice, at);
  }
  return wrapped;
}

async function verifies(sealer: ApprovalSealer, record: ApprovalRecord): Promise<boolean> {
  try {
    return await sealer.verifyRecord(record);
  } catch {
    return false;
  }
}
