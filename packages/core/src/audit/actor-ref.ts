import type { AuditActorRef } from "./types.js";
import { ACTOR_KINDS } from "../capability/types.js";

/** Evidence keeps `{ id, kind }` only; a malformed actor becomes `{ id: <string id or "unknown">, kind: "anonymous" }`. core.md §11 */
export function toAuditActorRef(actor: unknown): AuditActorRef {
  if (typeof actor === "object" && actor !== null) {
    const { id, kind } = actor as { id?: unknown; kind?: unknown };
    const safeId = typeof id === "string" && id.length > 0 ? id : "unknown";
    if ((ACTOR_KINDS as readonly unknown[]).includes(kind) && safeId === id) return { id: safeId, kind: kind as AuditActorRef["kind"] };
    return { id: safeId, kind: "anonymous" };
  }
  return { id: "unknown", kind: "anonymous" };
}
