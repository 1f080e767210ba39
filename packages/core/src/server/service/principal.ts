import type { Actor, ExposureSurface } from "../../vocabulary/types.js";
import { matchesRequester } from "../../runtime/resume-guard.js";
import type { InvocationRecord } from "../journal/types.js";

/**
 * Whether a journal row is the caller's: same surface, and the principal that wrote it matches the caller by resume's
 * own guard (R2: actor id, kind and acting agent). Every remote read or claim of a row asks this, so another principal's
 * invocation id answers exactly like an unused one (SI-3, SI-8).
 * @see docs/architecture/decisions.md (ADR-023 "Invocation ids of another actor look unused")
 */
export function isCallersRecord(record: InvocationRecord, caller: Actor, surface: ExposureSurface): boolean {
  return record.surface === surface && matchesRequester(caller, record.actor);
}
