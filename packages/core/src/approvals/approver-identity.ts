// Whitespace and default-ignorable characters (zero-width joiners, soft hyphens, BOMs) change no visible name.
const INVISIBLE = /[\p{White_Space}\p{Default_Ignorable_Code_Point}]/gu;

/**
 * The key SI-4 compares approver, requester and acting-agent ids by: ids that differ only in letter case, Unicode
 * compatibility form (composed or decomposed, fullwidth), whitespace or invisible characters are one person, since an
 * identity provider matching logins loosely can hand out either spelling. Merging only ever refuses more (a repeat
 * vote, a self-approval), never counts or admits more, so it fails closed.
 */
export function approverKey(id: string): string {
  const known = keys.get(id);
  if (known !== undefined) return known;
  const key = id.normalize("NFKC").toUpperCase().toLowerCase().normalize("NFKC").replace(INVISIBLE, "");
  // The same few ids come back on every call a grant covers (issuers, principal, agent): keep their keys, bounded.
  if (id.length <= MEMO_ID_LENGTH) {
    if (keys.size >= MEMO_ENTRIES) keys.clear();
    keys.set(id, key);
  }
  return key;
}

/** A pure function of the id, so remembering it changes nothing but the cost; the bounds cap the memory it holds. */
const keys = new Map<string, string>();
const MEMO_ENTRIES = 1024;
const MEMO_ID_LENGTH = 256;

/** Whether two ids name the same person for SI-4; anything that is not a string names no one. */
export function sameApprover(a: unknown, b: unknown): boolean {
  return typeof a === "string" && typeof b === "string" && approverKey(a) === approverKey(b);
}
