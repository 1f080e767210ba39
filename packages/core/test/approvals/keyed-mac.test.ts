// createKeyedMac: the approval seal's HMAC, offered to adapters that hand state to a client and take it back.
import { describe, expect, it } from "vitest";
import { canonicalInputHash, createKeyedMac } from "../../src/index.js";

const SECRET = "a-secret-of-at-least-thirty-two-bytes!!";

describe("createKeyedMac", () => {
  it("verifies what it signed, under the signing key's id, and nothing else", async () => {
    const mac = createKeyedMac([{ id: "k1", secret: SECRET }]);
    const tag = await mac.sign("payload");
    expect(mac.keyId).toBe("k1");
    expect(await mac.verify("k1", "payload", tag)).toBe(true);
    expect(await mac.verify("k1", "payload!", tag)).toBe(false);
    expect(await mac.verify("k2", "payload", tag)).toBe(false);
    expect(await mac.verify("k1", "payload", `${tag.slice(0, -1)}${tag.endsWith("A") ? "B" : "A"}`)).toBe(false);
    expect(await mac.verify("k1", "payload", "not-a-mac")).toBe(false);
  });

  it("rotates: the first key signs, an older key listed after it still verifies", async () => {
    const old = createKeyedMac([{ id: "old", secret: SECRET }]);
    const tag = await old.sign("state");
    const rotated = createKeyedMac([{ id: "new", secret: `${SECRET}-new` }, { id: "old", secret: SECRET }]);
    expect(rotated.keyId).toBe("new");
    expect(await rotated.verify("old", "state", tag)).toBe(true);
    expect(await rotated.verify("new", "state", tag)).toBe(false);
  });

  it("refuses short secrets and bad ids with a TypeError naming the option", () => {
    expect(() => createKeyedMac([{ id: "k1", secret: "short" }], "urlElicitation")).toThrow(/urlElicitation\.keys\[0\].*32 bytes/);
    expect(() => createKeyedMac([{ id: "no spaces", secret: SECRET }], "urlElicitation")).toThrow(TypeError);
    expect(() => createKeyedMac([], "urlElicitation")).toThrow(/urlElicitation\.keys must be a non-empty array/);
  });
});

describe("canonicalInputHash", () => {
  it("hashes canonical JSON, so key order does not matter; no canonical form gives undefined", async () => {
    expect(await canonicalInputHash({ b: 1, a: [1, "x"] })).toBe(await canonicalInputHash({ a: [1, "x"], b: 1 }));
    expect(await canonicalInputHash({ a: 1 })).not.toBe(await canonicalInputHash({ a: 2 }));
    expect(await canonicalInputHash({ n: 1n })).toBeUndefined();
  });
});
