import type { AuditActorRef } from "./types.js";
import { ACTOR_KINDS, actingAgentId } from "../vocabulary/types.js";

/**
 * Evidence keeps `{ id, kind }` and the acting agent's id only; a malformed actor becomes
 * `{ id: <string id or "unknown">, kind: "anonymous" }`. docs/architecture/spec/core.md#core-11
 */
export function toAuditActorRef(actor: unknown): AuditActorRef {
  if (typeof actor === "object" && actor !== null) {
    const { id, kind } = actor as { id?: unknown; kind?: unknown };
    const safeId = typeof id === "string" && id.length > 0 ? id : "unknown";
    if ((ACTOR_KINDS as readonly unknown[]).includes(kind) && safeId === id) {
      const ref: AuditActorRef = { id: safeId, kind: kind as AuditActorRef["kind"] };
      const viaId = actingAgentId(actor);
      if (viaId !== undefined) ref.via = { id: viaId };
      return ref;
    }
    return { id: safeId, kind: "anonymous" };
  }
  return { id: "unknown", kind: "anonymous" };
}
