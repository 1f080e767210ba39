import { hashCanonicalInputAnywhere } from "../../approvals/hash.js";
import { quorumOf } from "../../approvals/quorum.js";
import type { ApprovalDecision, ApprovalRecord } from "../../approvals/types.js";
import type { PolicyRequest } from "../../capability/types.js";
import { CapabilityError } from "../../errors/capability-error.js";
import { capabilityNotFound } from "../../errors/concealed.js";
import { inputSnapshot } from "../../internal/input-snapshot.js";
import { evaluatePolicyBatch } from "../../policy/evaluate-batch.js";
import type { CapabilityPlan } from "../plan.js";
import type { RuntimeState } from "../state.js";
import { forActingAgent, policyRefusal } from "../stages/policies.js";
import { revalidateApprovedInput } from "../stages/revalidate-approved.js";
import { unrepresentableInput, validateInput } from "../stages/validate-input.js";

/** How `runtime.approvals.decide` binds an approval to an approver's edited input (issue 50, item 5). */
export type DecisionEdits = {
  /** The decision with the validated edit and its hash, or a typed refusal thrown; the record is untouched either way. */
  bind(record: ApprovalRecord, decision: ApprovalDecision): Promise<ApprovalDecision>;
};

/**
 * The checks on an edit that need no record, so a known and an unknown id answer alike: only an approval may change
 * the input, never one that also issues a grant (a grant's conditions were judged on no input in particular, SI-13),
 * and the hash is the runtime's to compute, never the caller's.
 */
export function assertEditAllowed(decision: ApprovalDecision, grant: unknown): void {
  if (decision.input === undefined) {
    if (decision.inputHash !== undefined) throw editRefused("inputHash", "The runtime computes the inputHash of an edit: send the edited input only.");
    return;
  }
  if (decision.status !== "approved") throw editRefused("input", "Only an approval can change the input; a rejection rejects the request as asked.");
  if (grant !== undefined) throw editRefused("input", "An approval with changes cannot issue a grant: approve the edit, or grant the request as asked.");
}

/** `edits.bind`, or a refusal from a runtime built without them. */
export function bindEditedInput(edits: DecisionEdits | undefined, record: ApprovalRecord, decision: ApprovalDecision): Promise<ApprovalDecision> {
  if (edits === undefined) throw editRefused("input", "This runtime does not accept approvals with changes.");
  return edits.bind(record, decision);
}

/**
 * Binds an edit as stage 5 and stage 7 would bind a fresh call of the requester's: the capability's schema validates
 * it, the validated value is snapshotted and hashed, and the invocation policies judge it for the requester, on the
 * request's surface, with no request context (the decision has none; resume runs them again with the requester's,
 * R10). A deny refuses the decision; so does a demand for an approval type or quorum the request did not ask for: the
 * approver may narrow the call, never widen it. A quorum request is refused outright: its votes approved the input
 * as asked, and no vote carries an edit.
 */
export function decisionEdits(rt: RuntimeState): DecisionEdits {
  return {
    async bind(record, decision) {
      if (quorumOf(record) > 1) throw editRefused("input", "A request that needs several approvers cannot be approved with changes: each would approve another input.");
      const plan = rt.plans.get(record.capabilityId);
      if (plan === undefined || !plan.exposed[record.surface]) throw capabilityNotFound();
      const { value, hash } = await validatedEdit(plan, decision.input);
      await assertPoliciesAllow(rt, plan, record, value);
      return { ...decision, input: value, inputHash: hash };
    },
  };
}

async function validatedEdit(plan: CapabilityPlan, edit: unknown): Promise<{ value: unknown; hash: string }> {
  const validated = await validateInput(plan.inputSchema, edit);
  if (validated instanceof CapabilityError) throw underInput(validated);
  let value: unknown;
  try {
    value = inputSnapshot(validated.value);
  } catch (cause) {
    throw underInput(unrepresentableInput(cause));
  }
  const hash = await hashCanonicalInputAnywhere(value);
  if (hash === undefined) throw editRefused("input", "The edited input has no canonical JSON form.");
  // Resume validates the stored edit again and requires this hash (R8): an edit the schema would change once more (a
  // transform that is not idempotent) could never execute as approved, so it is refused now, not at resume.
  const again = await revalidateApprovedInput(plan, { input: JSON.parse(JSON.stringify(value)), inputHash: hash } as ApprovalRecord);
  if (again instanceof CapabilityError) {
    throw editRefused("input", "The capability's schema changes this input again when it is validated again; approve the request as asked or reject it.");
  }
  return { value, hash };
}

async function assertPoliciesAllow(rt: RuntimeState, plan: CapabilityPlan, record: ApprovalRecord, input: unknown): Promise<void> {
  const all = plan.policies.invocation[record.surface];
  const policies = plan.agentScoped ? forActingAgent(all, record.actor) : all;
  if (policies.length === 0) return;
  const request: PolicyRequest = { phase: "invocation", capability: { id: plan.id, meta: plan.meta }, surface: record.surface, actor: record.actor, context: undefined, input };
  const batch = await evaluatePolicyBatch(policies, request, rt.defaults.policyTimeoutMs);
  const refusal = policyRefusal(batch);
  if (refusal) throw refusal.error;
  const quorum = quorumOf(record);
  const widened = batch.approvals.find((d) => (d.approvalType !== undefined && !record.types.includes(d.approvalType)) || (d.quorum ?? 1) > quorum);
  if (widened !== undefined) {
    throw new CapabilityError({
      code: "POLICY_DENIED",
      stage: "approval",
      publicMessage: "The changed input needs an approval this request did not ask for; approve it as asked or reject it.",
      details: { policy: widened.policy },
    });
  }
}

/** The schema's issues, placed under `input` as a decision's other fields are placed under theirs. */
function underInput(error: CapabilityError): CapabilityError {
  const issues = (error.details as { issues?: { path: string[]; message: string }[] } | undefined)?.issues ?? [];
  return new CapabilityError({ code: "INPUT_INVALID", stage: "approval", details: { issues: issues.map((issue) => ({ path: ["input", ...issue.path], message: issue.message })) }, cause: error });
}

function editRefused(field: string, message: string): CapabilityError {
  return new CapabilityError({ code: "INPUT_INVALID", stage: "approval", details: { issues: [{ path: [field], message }] }, cause: new Error(message) });
}
