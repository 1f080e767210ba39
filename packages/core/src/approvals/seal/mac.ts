import type { CheckedSealKey } from "./keys.js";

// HMAC-SHA256 over Web Crypto, present on Node >= 20 and every edge runtime core supports; verification goes
// through `subtle.verify`, which compares in constant time.
type Subtle = SubtleCrypto;

function subtle(): Subtle {
  const s = (globalThis as { crypto?: { subtle?: Subtle } }).crypto?.subtle;
  if (s === undefined) throw new Error("Sealing approvals needs Web Crypto (globalThis.crypto.subtle), which this platform lacks.");
  return s;
}

export type MacKeys = {
  /** The key that seals. */
  readonly current: CheckedSealKey;
  sign(text: string): Promise<string>;
  /** Whether `mac` (base64url) is `text`'s MAC under the key named `keyId`; an unknown id never verifies. */
  verify(keyId: string, text: string, mac: string): Promise<boolean>;
};

export function macKeys(keys: readonly CheckedSealKey[]): MacKeys {
  const imported = new Map<string, Promise<CryptoKey>>();
  const cryptoKey = (key: CheckedSealKey) => {
    let found = imported.get(key.id);
    if (found === undefined) {
      found = subtle().importKey("raw", key.secret as Uint8Array<ArrayBuffer>, { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
      imported.set(key.id, found);
    }
    return found;
  };
  const byId = new Map(keys.map((key) => [key.id, key]));
  const encoder = new TextEncoder();
  return {
    current: keys[0]!,
    async sign(text) {
      const mac = await subtle().sign("HMAC", await cryptoKey(keys[0]!), encoder.encode(text));
      return toBase64Url(new Uint8Array(mac));
    },
    async verify(keyId, text, mac) {
      const key = byId.get(keyId);
      const bytes = fromBase64Url(mac);
      if (key === undefined || bytes === undefined) return false;
      return subtle().verify("HMAC", await cryptoKey(key), bytes as Uint8Array<ArrayBuffer>, encoder.encode(text));
    },
  };
}

// btoa/atob exist on every platform core supports; a seal's MAC is base64url without padding.
export function toBase64Url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text: string): Uint8Array | undefined {
  // Exactly one SHA-256 MAC, in its one spelling: the last character's two low bits belong to no byte, and a decoder
  // ignores them, so only the character with them clear is accepted (a token or seal has exactly one valid text).
  if (!/^[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]$/.test(text)) return undefined;
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "=");
  return Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
}
