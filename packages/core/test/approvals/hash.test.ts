import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  canHashSync,
  hashCanonicalInput,
  hashCanonicalInputAsync,
  sha256Hex,
  sha256HexAsync,
} from "../../src/approvals/hash.js";

const ABC = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
const EMPTY = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

describe("sha256Hex", () => {
  it("hashes synchronously on Node, as lowercase hex", () => {
    expect(canHashSync).toBe(true);
    expect(sha256Hex("abc")).toBe(ABC);
    expect(sha256Hex("")).toBe(EMPTY);
    expect(sha256Hex("é")).toMatch(/^[0-9a-f]{64}$/);
  });

  it("hashes the UTF-8 bytes of the text", async () => {
    const { createHash } = await import("node:crypto");
    const text = "é ✓ 𝄞";
    expect(sha256Hex(text)).toBe(createHash("sha256").update(Buffer.from(text, "utf8")).digest("hex"));
  });

  it("sha256HexAsync agrees with the synchronous hash", async () => {
    await expect(sha256HexAsync("abc")).resolves.toBe(ABC);
  });

  it("never imports node:crypto statically (core must load outside Node, core.md §16)", () => {
    const source = readFileSync(fileURLToPath(new URL("../../src/approvals/hash.ts", import.meta.url)), "utf8");
    expect(source).not.toMatch(/from\s+["'](node:)?crypto["']/);
    expect(source).toContain('getBuiltinModule?.("node:crypto")');
  });
});

describe("hash without node:crypto", () => {
  const original = process.getBuiltinModule;

  afterEach(() => {
    process.getBuiltinModule = original;
    vi.resetModules();
  });

  async function loadWithoutNodeCrypto() {
    // Detection happens once at module load, so load a fresh copy while the lookup is absent.
    (process as { getBuiltinModule?: unknown }).getBuiltinModule = undefined;
    vi.resetModules();
    const mod = await import("../../src/approvals/hash.js");
    process.getBuiltinModule = original;
    return mod;
  }

  it("reports canHashSync false and refuses to hash synchronously", async () => {
    const mod = await loadWithoutNodeCrypto();
    expect(mod.canHashSync).toBe(false);
    expect(() => mod.sha256Hex("abc")).toThrow(/sha256HexAsync/);
    expect(() => mod.hashCanonicalInput({ a: 1 })).toThrow(/sha256HexAsync/);
  });

  it("falls back to Web Crypto in sha256HexAsync and hashCanonicalInputAsync", async () => {
    const mod = await loadWithoutNodeCrypto();
    await expect(mod.sha256HexAsync("abc")).resolves.toBe(ABC);
    await expect(mod.sha256HexAsync("")).resolves.toBe(EMPTY);
    await expect(mod.hashCanonicalInputAsync({ b: 1, a: 2 })).resolves.toBe(sha256Hex('{"a":2,"b":1}'));
    await expect(mod.hashCanonicalInputAsync({ f: () => 1 })).resolves.toBeUndefined();
  });

  it("does not treat a module without createHash as node:crypto", async () => {
    (process as { getBuiltinModule?: unknown }).getBuiltinModule = () => ({});
    vi.resetModules();
    const mod = await import("../../src/approvals/hash.js");
    process.getBuiltinModule = original;
    expect(mod.canHashSync).toBe(false);
  });
});

describe("hashCanonicalInput", () => {
  it("SI-5: is the SHA-256 of the canonical JSON, so key order does not change it", () => {
    expect(hashCanonicalInput({ b: 1, a: 2 })).toBe(sha256Hex('{"a":2,"b":1}'));
    expect(hashCanonicalInput({ a: 2, b: 1 })).toBe(hashCanonicalInput({ b: 1, a: 2 }));
    expect(hashCanonicalInput({ a: 2, b: 1 })).not.toBe(hashCanonicalInput({ a: 2, b: 2 }));
    expect(hashCanonicalInput("abc")).toBe(sha256Hex('"abc"'));
  });

  it("SI-5: is undefined for unserializable input", () => {
    expect(hashCanonicalInput(undefined)).toBeUndefined();
    expect(hashCanonicalInput({ f: () => 1 })).toBeUndefined();
    expect(hashCanonicalInput(1n)).toBeUndefined();
    expect(hashCanonicalInput(new Map())).toBeUndefined();
  });

  it("hashCanonicalInputAsync agrees with the synchronous version", async () => {
    await expect(hashCanonicalInputAsync({ b: [1, null], a: "x" })).resolves.toBe(hashCanonicalInput({ a: "x", b: [1, null] }));
    await expect(hashCanonicalInputAsync(Number.NaN)).resolves.toBeUndefined();
  });
});
