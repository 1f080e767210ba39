import { hashCanonicalInputAnywhere } from "../../approvals/hash.js";
import type { ApprovalRecord } from "../../approvals/types.js";
import { CapabilityError } from "../../errors/capability-error.js";
import { inputSnapshot } from "../../internal/input-snapshot.js";
import { isPromiseLike } from "../../internal/promise.js";
import type { CapabilityPlan } from "../plan.js";
import { unrepresentableInput, validateInput } from "./validate-input.js";

/**
 * R8: the current schema must map the submitted input to exactly the approved value (same canonical hash), so a
 * transform applies once, as it did when the approver looked. Records without the submitted input (custom
 * coordinators), or whose submitted input no longer maps there, pass only when the schema gives the approved value
 * back unchanged. Anything else fails closed before consumption (SI-5, SI-6). Returns the frozen value that R10,
 * stage 9 and the handler all see; synchronous when the schema and the hash are.
 */
export function revalidateApprovedInput(plan: CapabilityPlan, record: ApprovalRecord): unknown | Promise<unknown> {
  if (record.submittedInput === undefined) return valueWithHash(plan, record.input, record.inputHash);
  const fromSubmitted = valueWithHash(plan, record.submittedInput, record.inputHash);
  const orApproved = (value: unknown) => (value instanceof CapabilityError ? valueWithHash(plan, record.input, record.inputHash) : value);
  return isPromiseLike(fromSubmitted) ? fromSubmitted.then(orApproved) : orApproved(fromSubmitted);
}

function valueWithHash(plan: CapabilityPlan, candidate: unknown, expectedHash: string): unknown | Promise<unknown> {
  const validated = validateInput(plan.inputSchema, candidate);
  return isPromiseLike(validated) ? validated.then((v) => hashed(v, expectedHash)) : hashed(validated, expectedHash);
}

function hashed(validated: Awaited<ReturnType<typeof validateInput>>, expectedHash: string): unknown | Promise<unknown> {
  if (validated instanceof CapabilityError) return validated;
  let value: unknown;
  try {
    value = inputSnapshot(validated.value);
  } catch (cause) {
    // A stored value no snapshot can bind (a custom coordinator's cycle or Proxy) fails R8 like an invalid one.
    return unrepresentableInput(cause);
  }
  const hash = hashCanonicalInputAnywhere(value);
  const compare = (h: string | undefined) => (h === expectedHash ? value : new CapabilityError({ code: "APPROVAL_INPUT_MISMATCH" }));
  return isPromiseLike(hash) ? hash.then(compare) : compare(hash);
}
