import { hashCanonicalInput } from "../../approvals/hash.js";
import type { Execution } from "../execution.js";

/**
 * The execution's input hash, computed at most once and only when something consumes it (core.md §6 stage 5, §16).
 * Unhashable input yields undefined; the approval gate turns that into APPROVAL_UNSERIALIZABLE_INPUT.
 */
export function ensureInputHash(exec: Execution, validated: unknown): string | undefined {
  if (!exec.inputHashed) {
    exec.inputHashed = true;
    exec.inputHash = hashCanonicalInput(validated);
  }
  return exec.inputHash;
}
