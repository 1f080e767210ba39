import type { Actor, ExposureSurface } from "../../vocabulary/types.js";
import { newApprovalId } from "../../internal/ids.js";
import type { ApprovalDemand } from "../../policy/evaluate-batch.js";
import type { CapabilityPlan } from "../plan.js";
import { canonicalJson } from "../../approvals/canonical-json.js";
import type { ApprovalRequest } from "../../approvals/types.js";

/**
 * Merges the static gate and every require-approval stance into one request (docs/architecture/spec/core.md#core-10 "Request building"):
 * reasons in order, types deduplicated, the shortest expiry wins, the largest quorum wins (the capability's own
 * `approval.quorum` whenever declared, like its `expiresInMs`).
 */
export function buildApprovalRequest(init: {
  plan: CapabilityPlan;
  surface: ExposureSurface;
  actor: Actor;
  input: unknown;
  inputHash: string;
  submittedInput: unknown;
  demands: readonly ApprovalDemand[];
  requestedAt: Date;
  defaultExpiresInMs: number;
  /** What the capability's governance was at request time (definition.ts). */
  definition?: { definition: unknown; digest: string; manifestDigest: string | undefined };
  /** The call's conversation, kept so a grant decided with the request can be scoped to it (SI-13). */
  conversationId?: string | undefined;
}): ApprovalRequest {
  const { plan, demands } = init;
  const gate = plan.meta.approval;
  const reasons: string[] = [];
  const types: string[] = [];
  const expiries: number[] = [];
  let quorum = gate?.quorum ?? 1;
  if (plan.approvalRequired) {
    reasons.push(`Approval is required for ${plan.id}.`);
    if (gate?.type !== undefined) types.push(gate.type);
  }
  if (gate?.expiresInMs !== undefined) expiries.push(gate.expiresInMs);
  for (const demand of demands) {
    reasons.push(demand.reason);
    if (demand.approvalType !== undefined && !types.includes(demand.approvalType)) types.push(demand.approvalType);
    if (demand.expiresInMs !== undefined) expiries.push(demand.expiresInMs);
    if (demand.quorum !== undefined && demand.quorum > quorum) quorum = demand.quorum;
  }
  const expiresInMs = expiries.length > 0 ? Math.min(...expiries) : init.defaultExpiresInMs;
  const submittedInput = jsonCopyOrUndefined(init.submittedInput);
  return {
    id: newApprovalId(),
    capabilityId: plan.id,
    surface: init.surface,
    actor: init.actor,
    input: init.input,
    inputHash: init.inputHash,
    reasons,
    types,
    risk: plan.meta.risk,
    sideEffect: plan.meta.sideEffect,
    requestedAt: init.requestedAt,
    expiresAt: new Date(init.requestedAt.getTime() + expiresInMs),
    ...(submittedInput === undefined ? {} : { submittedInput }),
    ...(quorum > 1 ? { quorum } : {}),
    ...(init.definition === undefined
      ? {}
      : {
          definition: init.definition.definition,
          definitionDigest: init.definition.digest,
          ...(init.definition.manifestDigest === undefined ? {} : { manifestDigest: init.definition.manifestDigest }),
        }),
    ...(init.conversationId === undefined ? {} : { conversationId: init.conversationId }),
  };
}

/**
 * The submitted value as JSON would carry it; none when it has no canonical JSON form (resume then uses `input`).
 * Canonical JSON, not JSON.stringify: the caller's raw value was never snapshotted, and only canonical JSON bounds
 * what a cycle, nesting, or a getter or `toJSON` minting fresh objects on every read can cost (SI-5).
 */
function jsonCopyOrUndefined(value: unknown): unknown {
  try {
    return JSON.parse(canonicalJson(value));
  } catch {
    return undefined;
  }
}
