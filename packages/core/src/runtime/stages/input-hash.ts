import { hashCanonicalInputAnywhere } from "../../approvals/hash.js";
import { isPromiseLike } from "../../internal/promise.js";
import type { Execution } from "../execution.js";

/**
 * The execution's input hash, computed at most once and only when something consumes it (docs/architecture/spec/core.md#core-stage-5, docs/architecture/spec/core.md#core-16).
 * Synchronous with node:crypto; a promise only on platforms that have Web Crypto alone.
 * Unhashable input yields undefined; the approval gate turns that into APPROVAL_UNSERIALIZABLE_INPUT.
 */
export function ensureInputHash(exec: Execution, validated: unknown): string | undefined | Promise<string | undefined> {
  if (exec.inputHashed) return exec.inputHash;
  exec.inputHashed = true;
  const hash = hashCanonicalInputAnywhere(validated);
  if (!isPromiseLike(hash)) return (exec.inputHash = hash);
  return hash.then((value) => (exec.inputHash = value));
}
