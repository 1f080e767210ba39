import { checkSealOptions, type ApprovalSealKey } from "./keys.js";
import { macKeys } from "./mac.js";

/**
 * HMAC-SHA256 over Web Crypto with rotating keys, for state an application hands to a client and must take back
 * unaltered (an MCP `requestState`, say). The same key rules and MAC as `approvals.seal`; use separate keys.
 */
export type KeyedMac = {
  /** The id of the key `sign` uses: the first one listed. */
  readonly keyId: string;
  /** The base64url MAC of `text` under the first key. */
  sign(text: string): Promise<string>;
  /** Whether `mac` is `text`'s MAC under the key named `keyId`; an unknown id or a malformed MAC never verifies. Constant-time. */
  verify(keyId: string, text: string, mac: string): Promise<boolean>;
};

/**
 * `keys` as for `approvals.seal`: ids of 1-64 letters, digits, `_` or `-`, secrets of at least 32 bytes; the first
 * signs, every one verifies. Throws a `TypeError` naming `option` (the option that holds the keys) for a key it refuses.
 *
 * @example
 * import { createKeyedMac } from "@orpc-agent/core";
 * const mac = createKeyedMac([{ id: "2026-12", secret: process.env.STATE_SECRET! }]);
 * const tag = await mac.sign("payload");
 * await mac.verify(mac.keyId, "payload", tag); // true
 */
export function createKeyedMac(keys: readonly ApprovalSealKey[], option = "createKeyedMac"): KeyedMac {
  const mac = macKeys(checkSealOptions({ keys }, option));
  return Object.freeze({ keyId: mac.current.id, sign: (text: string) => mac.sign(text), verify: (keyId: string, text: string, tag: string) => mac.verify(keyId, text, tag) });
}
