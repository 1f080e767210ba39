import { isWellFormedActor, type Actor } from "../../vocabulary/types.js";
import { canonicalJson } from "../canonical-json.js";
import { sha256HexAsync } from "../hash.js";
import { toBase64Url, type MacKeys } from "../seal/mac.js";
import type { DecisionLinkAction } from "./types.js";

/** What a decision link binds: the approval as it was when the link was minted, one approver, one action, an expiry. */
export type DecisionLinkClaims = {
  approvalId: string;
  /** The record's `inputHash` when minted: a record re-bound to another input since refuses the link. */
  inputHash: string;
  /** The approver's JSON copy (as `readApprovalDecision` reads it). */
  approver: Actor;
  action: DecisionLinkAction;
  expiresAtMs: number;
  /** 128 random bits, base64url: two links for one decision differ, and the audit names a link by its hash. */
  nonce: string;
};

// Token: `dl1.<keyId>.<payload>.<mac>`; payload is the base64url canonical JSON of the claims, the MAC (HMAC-SHA256,
// base64url) is over everything before it, prefixed so no other MAC the runtime computes can ever pass for one.
const VERSION = "dl1";
const DOMAIN = "orpc-agent decision link\n";
/** Past this a token is refused unread; minting refuses an approver whose token would be longer. */
export const MAX_TOKEN_LENGTH = 8192;
const KEY_ID = /^[A-Za-z0-9_-]{1,64}$/;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

export async function signDecisionLink(mac: MacKeys, claims: DecisionLinkClaims): Promise<string> {
  const payload = toBase64Url(
    new TextEncoder().encode(
      canonicalJson({ v: 1, a: claims.approvalId, h: claims.inputHash, p: claims.approver, x: claims.action, e: claims.expiresAtMs, n: claims.nonce }),
    ),
  );
  const signed = `${VERSION}.${mac.current.id}.${payload}`;
  return `${signed}.${await mac.sign(DOMAIN + signed)}`;
}

/**
 * The claims of a token the keys signed, or `undefined` for anything else (malformed, forged, an unknown or
 * rotated-out key id): one answer for all, so a caller learns nothing about which. Expiry is the caller's to check.
 */
export async function verifyDecisionLink(mac: MacKeys, token: unknown): Promise<DecisionLinkClaims | undefined> {
  if (typeof token !== "string" || token.length > MAX_TOKEN_LENGTH) return undefined;
  const parts = token.split(".");
  if (parts.length !== 4 || parts[0] !== VERSION || !KEY_ID.test(parts[1]!) || !BASE64URL.test(parts[2]!)) return undefined;
  let verified: boolean;
  try {
    // Constant-time: `subtle.verify` compares the MAC (seal/mac.ts).
    verified = await mac.verify(parts[1]!, DOMAIN + parts.slice(0, 3).join("."), parts[3]!);
  } catch {
    return undefined;
  }
  return verified ? readClaims(parts[2]!) : undefined;
}

/** A fresh nonce: 16 random bytes, base64url. */
export function newLinkNonce(): string {
  return toBase64Url(globalThis.crypto.getRandomValues(new Uint8Array(16)));
}

/** The id the audit records for a link: a hash of its nonce, never the token, which is a bearer secret. */
export async function linkIdOf(nonce: string): Promise<string> {
  return `lnk_${(await sha256HexAsync(`decision-link\u0000${nonce}`)).slice(0, 32)}`;
}

// Only signed payloads reach here; the shape is still checked, so a key misused elsewhere cannot hand us a stranger.
function readClaims(payload: string): DecisionLinkClaims | undefined {
  let claims: Record<string, unknown>;
  try {
    const binary = atob(payload.replace(/-/g, "+").replace(/_/g, "/"));
    claims = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(binary, (ch) => ch.charCodeAt(0))));
  } catch {
    return undefined;
  }
  if (typeof claims !== "object" || claims === null || claims.v !== 1) return undefined;
  const { a, h, p, x, e, n } = claims;
  if (typeof a !== "string" || a.length === 0 || typeof h !== "string" || typeof n !== "string") return undefined;
  if ((x !== "approve" && x !== "reject") || typeof e !== "number" || !Number.isSafeInteger(e)) return undefined;
  if (!isWellFormedActor(p) || p.kind === "anonymous") return undefined;
  return { approvalId: a, inputHash: h, approver: p, action: x, expiresAtMs: e, nonce: n };
}
