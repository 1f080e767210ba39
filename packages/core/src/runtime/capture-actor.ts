import { inputSnapshot } from "../internal/input-snapshot.js";

/**
 * Stage 2 reads the caller's actor exactly once (SI-3): a frozen copy, so a caller mutating its object (or a getter
 * answering differently) while a policy awaits cannot make the handler run as someone the audit never named.
 * Anything that is not an object is returned as is, and unpinnable attributes give `undefined`; stage 6 refuses both.
 */
export function captureActor(actor: unknown): unknown {
  if (typeof actor !== "object" || actor === null) return actor;
  const source = actor as { id?: unknown; kind?: unknown; displayName?: unknown; attributes?: unknown };
  const copy: Record<string, unknown> = { id: source.id, kind: source.kind };
  const displayName = source.displayName;
  if (displayName !== undefined) copy.displayName = displayName;
  const via = (source as { via?: unknown }).via;
  if (via !== undefined) copy.via = captureVia(via);
  const attributes = source.attributes;
  if (attributes !== undefined) {
    try {
      copy.attributes = inputSnapshot(attributes);
    } catch {
      // Attributes that cannot be pinned (a Proxy, a throwing getter): no trustworthy actor, so stage 6 refuses.
      return undefined;
    }
  }
  return Object.freeze(copy);
}

/** The acting agent, read once into a frozen copy; anything malformed is kept as is so stage 6 refuses it. */
function captureVia(via: unknown): unknown {
  if (typeof via !== "object" || via === null) return via;
  const source = via as { id?: unknown; displayName?: unknown };
  const copy: Record<string, unknown> = { id: source.id };
  const displayName = source.displayName;
  if (displayName !== undefined) copy.displayName = displayName;
  return Object.freeze(copy);
}
