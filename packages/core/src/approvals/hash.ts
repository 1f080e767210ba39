import { canonicalJson, UnserializableInputError } from "./canonical-json.js";

// docs/architecture/spec/core.md#core-16: hash synchronously with node:crypto when the platform has it. The module is
// looked up at load time, never statically imported, so core stays loadable outside Node.
type NodeHash = { update(data: string, encoding: "utf8"): NodeHash; digest(encoding: "hex"): string };
type NodeCrypto = {
  createHash(algorithm: "sha256"): NodeHash;
  /** One-shot hashing (Node ≥ 20.12): about 3× cheaper than createHash for short inputs. */
  hash?: (algorithm: "sha256", data: string, encoding: "hex") => string;
};

function loadNodeCrypto(): NodeCrypto | undefined {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  try {
    const mod = proc?.getBuiltinModule?.("node:crypto") as Partial<NodeCrypto> | undefined;
    return typeof mod?.createHash === "function" ? (mod as NodeCrypto) : undefined;
  } catch {
    return undefined;
  }
}

const nodeCrypto = loadNodeCrypto();
const oneShot = typeof nodeCrypto?.hash === "function" ? nodeCrypto.hash.bind(nodeCrypto) : undefined;

/** True when `sha256Hex` and `hashCanonicalInput` can run synchronously on this platform. */
export const canHashSync: boolean = nodeCrypto !== undefined;

/**
 * Lowercase hex SHA-256 of the UTF-8 bytes of `text`, computed synchronously.
 * Throws where `canHashSync` is false; use `sha256HexAsync` there.
 *
 * @example
 * import { sha256Hex } from "./hash.js";
 * sha256Hex("abc"); // "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
 */
export function sha256Hex(text: string): string {
  if (nodeCrypto === undefined) {
    throw new Error("Synchronous SHA-256 needs node:crypto, which this platform lacks; use sha256HexAsync.");
  }
  if (oneShot) return oneShot("sha256", text, "hex");
  return nodeCrypto.createHash("sha256").update(text, "utf8").digest("hex");
}

/** Lowercase hex SHA-256 of `text`: node:crypto when present, else Web Crypto. */
export async function sha256HexAsync(text: string): Promise<string> {
  if (nodeCrypto !== undefined) return sha256Hex(text);
  const subtle = (globalThis as { crypto?: { subtle?: SubtleCrypto } }).crypto?.subtle;
  if (subtle === undefined) throw new Error("No SHA-256 implementation: neither node:crypto nor Web Crypto is available.");
  const digest = await subtle.digest("SHA-256", new TextEncoder().encode(text));
  return toHex(new Uint8Array(digest));
}

function toHex(bytes: Uint8Array): string {
  let out = "";
  for (const byte of bytes) out += byte.toString(16).padStart(2, "0");
  return out;
}

/**
 * The approval input hash: SHA-256 of the canonical JSON of `value` (docs/architecture/spec/core.md#core-10, SI-5).
 * `undefined` when the value has no canonical form (→ `APPROVAL_UNSERIALIZABLE_INPUT`).
 */
export function hashCanonicalInput(value: unknown): string | undefined {
  const text = canonicalTextOrUndefined(value);
  return text === undefined ? undefined : sha256Hex(text);
}

/** Whether `value` has a canonical form, i.e. whether `hashCanonicalInput` would hash it; without hashing it. */
export function hasCanonicalForm(value: unknown): boolean {
  return canonicalTextOrUndefined(value) !== undefined;
}

/** Synchronous where node:crypto exists, else a promise over Web Crypto: what the pipeline calls. */
export function hashCanonicalInputAnywhere(value: unknown): string | undefined | Promise<string | undefined> {
  return canHashSync ? hashCanonicalInput(value) : hashCanonicalInputAsync(value);
}

/**
 * The input hash approvals bind (docs/architecture/spec/core.md#core-10): lowercase hex SHA-256 of the canonical JSON of `value`, on any
 * platform; `undefined` when the value has no canonical form. For adapters binding their own state to an input.
 */
export function canonicalInputHash(value: unknown): Promise<string | undefined> {
  return hashCanonicalInputAsync(value);
}

/** `hashCanonicalInput` for platforms without node:crypto. */
export async function hashCanonicalInputAsync(value: unknown): Promise<string | undefined> {
  const text = canonicalTextOrUndefined(value);
  return text === undefined ? undefined : sha256HexAsync(text);
}

function canonicalTextOrUndefined(value: unknown): string | undefined {
  try {
    return canonicalJson(value);
  } catch (error) {
    if (error instanceof UnserializableInputError) return undefined;
    throw error;
  }
}
