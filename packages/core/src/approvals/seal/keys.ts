/** One HMAC key for sealing approvals. `id` travels in every seal, so a rotated-out key still verifies old records. */
export type ApprovalSealKey = {
  /** Letters, digits, `_` and `-`, at most 64 characters: it is written into each seal. */
  id: string;
  /** At least 32 bytes (a string counts its UTF-8 bytes). Keep it out of the database it protects. */
  secret: string | Uint8Array;
};

/**
 * `approvals.seal`: the runtime seals every approval request and decision with the first key and accepts a seal
 * made by any key listed. Rotate by putting the new key first and keeping the old one until its approvals expire.
 * docs/guides/tamper-evident-approvals.md
 */
export type ApprovalSealOptions = {
  keys: readonly ApprovalSealKey[];
};

const KEY_ID = /^[A-Za-z0-9_-]{1,64}$/;
const MIN_SECRET_BYTES = 32;

export type CheckedSealKey = { readonly id: string; readonly secret: Uint8Array };

/**
 * Validates `approvals.seal` at runtime creation; every problem is a TypeError naming the key. `option` names the
 * option in messages, for other keyed MACs that follow the same key rules.
 */
export function checkSealOptions(options: unknown, option = "approvals.seal"): readonly CheckedSealKey[] {
  const keys = (options as { keys?: unknown } | null | undefined)?.keys;
  if (!Array.isArray(keys) || keys.length === 0) throw new TypeError(`${option}.keys must be a non-empty array of { id, secret }.`);
  const seen = new Set<string>();
  return Object.freeze(
    keys.map((key: { id?: unknown; secret?: unknown } | null, index) => {
      const id = key?.id;
      if (typeof id !== "string" || !KEY_ID.test(id)) {
        throw new TypeError(`${option}.keys[${index}].id must be 1-64 letters, digits, "_" or "-".`);
      }
      if (seen.has(id)) throw new TypeError(`${option}.keys: the key id "${id}" appears twice.`);
      seen.add(id);
      const raw = key?.secret;
      const secret = typeof raw === "string" ? new TextEncoder().encode(raw) : raw instanceof Uint8Array ? new Uint8Array(raw) : undefined;
      if (secret === undefined || secret.byteLength < MIN_SECRET_BYTES) {
        throw new TypeError(`${option}.keys[${index}] ("${id}"): the secret must be a string or Uint8Array of at least ${MIN_SECRET_BYTES} bytes.`);
      }
      return Object.freeze({ id, secret });
    }),
  );
}
