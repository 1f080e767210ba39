import { CapabilityError } from "../../errors/capability-error.js";
import { auditEvent, type Execution } from "../execution.js";

/**
 * Stage 10: a caller signal already aborted stops here (no `started`, procedure never called); otherwise
 * `capability.started` is emitted, and under `audit.strict` awaited on every sink (audit before effect).
 */
export function runControls(exec: Execution, signal: AbortSignal | undefined): CapabilityError | undefined | Promise<CapabilityError | undefined> {
  if (signal?.aborted) return new CapabilityError({ code: "CANCELLED" });
  const { audit } = exec.rt;
  if (!audit.enabled) return undefined;
  const data: { attempt: 1; approvalId?: string } = { attempt: 1 };
  if (exec.approvalId !== undefined) data.approvalId = exec.approvalId;
  const event = auditEvent(exec, "capability.started", data);
  if (!audit.strict) {
    audit.emit(event);
    return undefined;
  }
  return audit.emitAwaited(event).then(
    () => undefined,
    (cause) => new CapabilityError({ code: "AUDIT_UNAVAILABLE", cause }),
  );
}
