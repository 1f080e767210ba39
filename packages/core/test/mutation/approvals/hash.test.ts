// Raised from the mutation run: the platform fallbacks of the approval hash (docs/architecture/spec/core.md#core-16: core loads outside Node).
import { createHash } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";

const ABC = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
const original = process.getBuiltinModule;

/** A fresh copy of hash.ts, loaded while `getBuiltinModule` answers as `lookup` does. */
async function loadHashWith(lookup: ((id: string) => unknown) | undefined) {
  (process as { getBuiltinModule?: unknown }).getBuiltinModule = lookup;
  vi.resetModules();
  try {
    return await import("../../../src/approvals/hash.js");
  } finally {
    process.getBuiltinModule = original;
  }
}

afterEach(() => {
  process.getBuiltinModule = original;
  vi.unstubAllGlobals();
  vi.resetModules();
});

describe("approval hash fallbacks", () => {
  it("hashes with createHash when node:crypto has no one-shot hash (Node < 20.12)", async () => {
    const mod = await loadHashWith((id) => (id === "node:crypto" ? { createHash } : undefined));
    expect(mod.canHashSync).toBe(true);
    expect(mod.sha256Hex("abc")).toBe(ABC);
    const text = "é ✓ 𝄞";
    expect(mod.sha256Hex(text)).toBe(createHash("sha256").update(Buffer.from(text, "utf8")).digest("hex"));
    expect(mod.hashCanonicalInput({ b: 1, a: 2 })).toBe(createHash("sha256").update('{"a":2,"b":1}').digest("hex"));
  });

  it("treats a throwing module lookup as no node:crypto", async () => {
    const mod = await loadHashWith(() => {
      throw new Error("no builtins here");
    });
    expect(mod.canHashSync).toBe(false);
    await expect(mod.sha256HexAsync("abc")).resolves.toBe(ABC);
  });

  it("hashes asynchronously with node:crypto where it exists, so a Node without global Web Crypto still hashes", async () => {
    const mod = await loadHashWith(original);
    expect(mod.canHashSync).toBe(true);
    vi.stubGlobal("crypto", undefined);
    await expect(mod.sha256HexAsync("abc")).resolves.toBe(ABC);
    await expect(mod.hashCanonicalInputAsync({ b: 1, a: 2 })).resolves.toBe(createHash("sha256").update('{"a":2,"b":1}').digest("hex"));
  });

  it("says which implementations are missing when neither node:crypto nor Web Crypto exists", async () => {
    const mod = await loadHashWith(undefined);
    vi.stubGlobal("crypto", undefined);
    await expect(mod.sha256HexAsync("abc")).rejects.toThrow("No SHA-256 implementation: neither node:crypto nor Web Crypto is available.");
    vi.stubGlobal("crypto", {});
    await expect(mod.sha256HexAsync("abc")).rejects.toThrow("No SHA-256 implementation");
  });
});
