import type { KeyedMac } from "@orpc-agent/core";
import type { ApprovalEnvelope } from "./elicitation-config.js";

/**
 * What a 2026-07-28 `requestState` binds (issue 24): the approval, the principal, the capability, the input hash and
 * the expiry, plus what the server shows again while the approval is pending. The client holds it, so it is
 * attacker-controlled: HMAC-protected, and every binding is checked on the retry.
 */
export type ApprovalState = {
  approvalId: string;
  principal: string;
  capabilityId: string;
  inputHash: string;
  /** Epoch milliseconds: the approval's own expiry. */
  expiresAt: number;
  /** The URL elicitation shown again while pending. */
  url: string;
  message: string;
  /** Today's envelope, answered when the user declines to open the link. */
  envelope: ApprovalEnvelope;
};

// Domain separation: a MAC made for anything else under the same key never verifies as a state.
const DOMAIN = "orpc-agent/mcp/requestState/v1";
const MAX_STATE_CHARS = 16_384;

/** `<keyId>.<base64url(JSON)>.<mac>`. */
export async function sealState(mac: KeyedMac, state: ApprovalState): Promise<string> {
  const signed = `${mac.keyId}.${toBase64Url(new TextEncoder().encode(JSON.stringify(state)))}`;
  return `${signed}.${await mac.sign(`${DOMAIN}\n${signed}`)}`;
}

/** The state, or `undefined` for anything this server did not seal (tampered, truncated, another key, not a state). */
export async function openState(mac: KeyedMac, text: unknown): Promise<ApprovalState | undefined> {
  if (typeof text !== "string" || text.length > MAX_STATE_CHARS) return undefined;
  const parts = text.split(".");
  if (parts.length !== 3) return undefined;
  const [keyId, body, tag] = parts as [string, string, string];
  if (!(await mac.verify(keyId, `${DOMAIN}\n${keyId}.${body}`, tag))) return undefined;
  try {
    const state = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(fromBase64Url(body))) as unknown;
    return isApprovalState(state) ? state : undefined;
  } catch {
    return undefined;
  }
}

function isApprovalState(value: unknown): value is ApprovalState {
  if (typeof value !== "object" || value === null) return false;
  const s = value as Record<string, unknown>;
  const strings = ["approvalId", "principal", "capabilityId", "inputHash", "url", "message"].every((key) => typeof s[key] === "string");
  const envelope = s.envelope as { status?: unknown } | null;
  return strings && typeof s.expiresAt === "number" && typeof envelope === "object" && envelope !== null && envelope.status === "approval-required";
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text: string): Uint8Array {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new SyntaxError("not base64url");
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
}
