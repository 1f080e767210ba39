import { isWriteLike } from "../../vocabulary/types.js";
import type { CapabilityRegistry } from "../../registry/types.js";
import type { ExecutionResult } from "../../runtime/types.js";

/**
 * An interrupted write (docs/architecture/spec/distributed.md#distributed-5-2): a timeout or cancellation after stage 11 began, on a write-like
 * capability. Whether the effect happened cannot be known, so it is journaled `unknown`, never settled.
 */
export function isInterruptedWrite(result: ExecutionResult<unknown>, registry: CapabilityRegistry, capabilityId: string): boolean {
  if (result.status !== "failed" && result.status !== "cancelled") return false;
  if (result.effectStatus !== "unknown") return false;
  if (result.error.code !== "TIMEOUT" && result.error.code !== "CANCELLED") return false;
  const sideEffect = registry.get(capabilityId)?.meta.sideEffect;
  // A capability gone from the registry meanwhile counts as a write: uncertainty is never settled.
  return sideEffect === undefined || isWriteLike(sideEffect);
}
