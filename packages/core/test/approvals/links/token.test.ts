// The decision-link token format (issue 50): `dl1.<keyId>.<payload>.<mac>`, URL-safe, bound to every claim, verified
// under every listed key and only those, and the key rules of approvals.links.
import { describe, expect, it } from "vitest";
import { checkDecisionLinkOptions } from "../../../src/approvals/links/keys.js";
import { linkIdOf, newLinkNonce, signDecisionLink, verifyDecisionLink, type DecisionLinkClaims } from "../../../src/approvals/links/token.js";
import { checkSealOptions } from "../../../src/approvals/seal/keys.js";
import { macKeys } from "../../../src/approvals/seal/mac.js";

const K1 = { id: "k1", secret: "links-key-one-that-is-at-least-32-bytes!" };
const K2 = { id: "k2", secret: "links-key-two-that-is-at-least-32-bytes!" };
const keys = (...list: (typeof K1)[]) => macKeys(checkDecisionLinkOptions({ keys: list }));

const claims: DecisionLinkClaims = {
  approvalId: "apr_1",
  inputHash: "a".repeat(64),
  approver: { id: "mo", kind: "user", displayName: "Mo Ü" },
  action: "approve",
  expiresAtMs: 1_900_000_000_000,
  nonce: newLinkNonce(),
};

describe("decision link tokens", () => {
  it("round-trips every claim through a compact, URL-safe token", async () => {
    const token = await signDecisionLink(keys(K1), claims);
    expect(token).toMatch(/^dl1\.k1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(encodeURIComponent(token)).toBe(token);
    expect(token.length).toBeLessThan(400);
    expect(await verifyDecisionLink(keys(K1), token)).toEqual(claims);
  });

  it("two tokens for the same decision differ (fresh nonce) and name different links", async () => {
    const a = await signDecisionLink(keys(K1), { ...claims, nonce: newLinkNonce() });
    const b = await signDecisionLink(keys(K1), { ...claims, nonce: newLinkNonce() });
    expect(a).not.toBe(b);
    const [na, nb] = [(await verifyDecisionLink(keys(K1), a))!.nonce, (await verifyDecisionLink(keys(K1), b))!.nonce];
    expect(na).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(await linkIdOf(na)).not.toBe(await linkIdOf(nb));
    expect(await linkIdOf(na)).toBe(await linkIdOf(na));
  });

  it("rotation: the first key signs; every listed key verifies; a key no longer listed verifies nothing", async () => {
    const old = await signDecisionLink(keys(K1), claims);
    const rotated = keys(K2, K1);
    const fresh = await signDecisionLink(rotated, claims);
    expect(fresh.split(".")[1]).toBe("k2");
    expect(await verifyDecisionLink(rotated, old)).toEqual(claims);
    expect(await verifyDecisionLink(rotated, fresh)).toEqual(claims);
    expect(await verifyDecisionLink(keys(K2), old)).toBeUndefined();
    expect(await verifyDecisionLink(keys(K1), fresh)).toBeUndefined();
  });

  it("a key with the same id but another secret verifies nothing", async () => {
    const token = await signDecisionLink(keys(K1), claims);
    expect(await verifyDecisionLink(keys({ id: "k1", secret: K2.secret }), token)).toBeUndefined();
  });

  it("refuses malformed tokens without throwing", async () => {
    const token = await signDecisionLink(keys(K1), claims);
    const [v, k, p, m] = token.split(".");
    for (const bad of [undefined, null, 7, {}, "", token.toUpperCase(), `${v}.${k}.${p}`, `${v}.${k}.${p}.${m}.x`, `${v}.k 1.${p}.${m}`, `${v}.${k}.${p}=.${m}`, `${v}.${k}.${p}.${m}=`, "a".repeat(10_000)]) {
      expect(await verifyDecisionLink(keys(K1), bad)).toBeUndefined();
    }
  });
});

describe("approvals.links keys", () => {
  it("follow the seal's key rules, naming approvals.links", () => {
    expect(() => checkDecisionLinkOptions({ keys: [{ id: "k1", secret: "short" }] })).toThrow(/approvals\.links\.keys\[0\].*32 bytes/);
    expect(() => checkDecisionLinkOptions({ keys: [] })).toThrow(/approvals\.links\.keys/);
    expect(() => checkDecisionLinkOptions({ keys: [K1, { ...K2, id: "k1" }] })).toThrow(/appears twice/);
    expect(checkDecisionLinkOptions({ keys: [K1, K2] }).map((k) => k.id)).toEqual(["k1", "k2"]);
  });

  it("refuse a secret that is also a seal key's, whether given as a string or as bytes", () => {
    const seal = checkSealOptions({ keys: [{ id: "s1", secret: K2.secret }] });
    expect(() => checkDecisionLinkOptions({ keys: [K1, { id: "k2", secret: new TextEncoder().encode(K2.secret) }] }, seal)).toThrow(/keys\[1\].*seal key "s1"/);
    expect(checkDecisionLinkOptions({ keys: [K1] }, seal)).toHaveLength(1);
  });
});
