// Whitespace and default-ignorable characters (zero-width joiners, soft hyphens, BOMs) change no visible name.
const INVISIBLE = /[\p{White_Space}\p{Default_Ignorable_Code_Point}]/gu;

/**
 * The key SI-4 compares approver, requester and acting-agent ids by: ids that differ only in letter case, Unicode
 * compatibility form (composed or decomposed, fullwidth), whitespace or invisible characters are one person, since an
 * identity provider matching logins loosely can hand out either spelling. Merging only ever refuses more (a repeat
 * vote, a self-approval), never counts or admits more, so it fails closed.
 */
export function approverKey(id: string): string {
  return id.normalize("NFKC").toUpperCase().toLowerCase().normalize("NFKC").replace(INVISIBLE, "");
}

/** Whether two ids name the same person for SI-4; anything that is not a string names no one. */
export function sameApprover(a: unknown, b: unknown): boolean {
  return typeof a === "string" && typeof b === "string" && approverKey(a) === approverKey(b);
}
