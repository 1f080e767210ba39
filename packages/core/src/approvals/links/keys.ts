import { checkSealOptions, type ApprovalSealKey, type CheckedSealKey } from "../seal/keys.js";

/** One HMAC key for decision links: the same rules as a seal key (an id of 1-64 letters, digits, `_` or `-`; a secret of at least 32 bytes). */
export type DecisionLinkKey = ApprovalSealKey;

/**
 * `approvals.links`: the first key signs every decision link, every key listed verifies one, so rotating is putting
 * the new key first and keeping the old one until the links it signed have expired. The keys are their own: a secret
 * that is also a seal key's (`approvals.seal`) is refused at startup. docs/guides/decision-links.md
 */
export type DecisionLinkOptions = {
  keys: readonly DecisionLinkKey[];
};

/**
 * Validates `approvals.links` at runtime creation, as `approvals.seal` is validated; every problem is a TypeError
 * naming the key. A links secret equal to a seal secret is refused: one leaked key must not be able to do both jobs.
 */
export function checkDecisionLinkOptions(options: unknown, sealKeys: readonly CheckedSealKey[] = []): readonly CheckedSealKey[] {
  const keys = checkSealOptions(options, "approvals.links");
  keys.forEach((key, index) => {
    const shared = sealKeys.find((seal) => sameBytes(seal.secret, key.secret));
    if (shared !== undefined) {
      throw new TypeError(`approvals.links.keys[${index}] ("${key.id}"): the secret is also the seal key "${shared.id}"'s; decision links need keys of their own.`);
    }
  });
  return keys;
}

// Startup only, over the application's own keys: no attacker times this comparison.
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.byteLength === b.byteLength && a.every((byte, index) => byte === b[index]);
}
