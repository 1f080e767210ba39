// What a completed answer may say about an approval with changes, read as untrusted wire data: the HTTP client
// refuses an answer that carries it malformed, and an adapter over any `CapabilityClient` reads it the same way.
// Imports nothing, as everything in core/client.
// docs/guides/approvals.md#approve-with-changes

/** RFC 6901: the whole value (`""`), or `/`-separated tokens whose only escapes are `~0` and `~1`. */
const JSON_POINTER = /^(?:\/(?:[^~/]|~[01])*)*$/;

/**
 * Reads a remote result's `approvedWithChanges`: `undefined` when absent, a fresh `{ changed }` when it is exactly an
 * object whose one key `changed` is an array of RFC 6901 pointers, and `null` for anything else (values beside the
 * pointers, a non-pointer, another key), which a reader refuses rather than guess at what ran.
 *
 * @example
 * import { readApprovedWithChanges } from "@orpc-agent/core/client";
 * readApprovedWithChanges({ changed: ["/amount"] }); // { changed: ["/amount"] }
 * readApprovedWithChanges({ changed: ["/amount"], before: { amount: 320 } }); // null
 */
export function readApprovedWithChanges(value: unknown): { changed: string[] } | undefined | null {
  if (value === undefined) return undefined;
  try {
    return readPointers(value);
  } catch {
    // A getter or proxy that throws, from a client that is not core's: unreadable like any other malformed value.
    return null;
  }
}

function readPointers(value: unknown): { changed: string[] } | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const keys = Object.keys(value);
  if (keys.length !== 1 || keys[0] !== "changed") return null;
  const changed = (value as { changed: unknown }).changed;
  if (!Array.isArray(changed)) return null;
  const copy: string[] = [];
  // By index, so a hole in a sparse array counts as the non-pointer it is.
  for (let i = 0; i < changed.length; i++) {
    const pointer: unknown = changed[i];
    if (typeof pointer !== "string" || !JSON_POINTER.test(pointer)) return null;
    copy.push(pointer);
  }
  return { changed: copy };
}
