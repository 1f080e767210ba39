import { canonicalJson } from "../../approvals/canonical-json.js";
import { canHashSync, sha256Hex, sha256HexAsync } from "../../approvals/hash.js";
import { encodeRpcJson } from "./outcome-codec.js";

const sha256 = (text: string): string | Promise<string> => (canHashSync ? sha256Hex(text) : sha256HexAsync(text));

function hexToBase64Url(hex: string): string {
  let binary = "";
  for (let i = 0; i < hex.length; i += 2) binary += String.fromCharCode(parseInt(hex.slice(i, i + 2), 16));
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** base64url(sha256(text)), without padding. */
export async function sha256Base64Url(text: string): Promise<string> {
  return hexToBase64Url(await sha256(text));
}

/**
 * The invocation fingerprint (docs/architecture/spec/distributed.md#distributed-5-1): what makes two requests with one id the same request.
 * The raw input is encoded by oRPC's RPC JSON serializer first, so a `Map` input never collapses to `{}`. The acting
 * agent's id joins the actor when there is one (an actor without one hashes as before), so another agent's request is
 * never the same request and never re-claims a row released for its owner (SI-3). Throws when the input has no such encoding.
 */
export async function invocationFingerprint(f: {
  capabilityId: string;
  surface: string;
  actor: { id: string; kind: string; via?: { id: string } };
  input: unknown;
}): Promise<string> {
  const encoded = encodeRpcJson(f.input);
  const actor = f.actor.via === undefined ? { id: f.actor.id, kind: f.actor.kind } : { id: f.actor.id, kind: f.actor.kind, via: { id: f.actor.via.id } };
  const text = canonicalJson({ v: 1, capabilityId: f.capabilityId, surface: f.surface, actor, input: encoded });
  return sha256(text);
}

/** One effect key per logical operation, for the first run, its resume and any authorized re-run (docs/architecture/spec/distributed.md#distributed-5-1). */
export async function invocationIdempotencyKey(namespace: string, invocationId: string): Promise<string> {
  return `inv_${await sha256Base64Url(`${namespace}\u0000${invocationId}`)}`;
}
