import type { RuntimeState } from "./state.js";

/** Longer than any sane capability id; an unknown id beyond it is a probe or junk, not evidence worth copying. */
export const MAX_AUDITED_ID_LENGTH = 256;

/**
 * The capability id as audit events and spans carry it (SI-10): verbatim for a registered id or a short unknown one;
 * an unknown id over the bound becomes its first 64 characters and its length. The `..` (an empty segment) makes the
 * shortened form impossible as a registry id, so resolving it can never reach a real capability.
 */
export function auditedCapabilityId(rt: RuntimeState, id: string): string {
  if (id.length <= MAX_AUDITED_ID_LENGTH || rt.plans.has(id)) return id;
  return `${id.slice(0, 64)}..[${id.length} characters]`;
}
