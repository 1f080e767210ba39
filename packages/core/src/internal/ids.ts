// Identifiers minted by the runtime: a prefix and a version-4 UUID. Looked up at load time, never statically
// imported, so core loads outside Node, where Web Crypto's randomUUID serves.
type NodeBits = { randomFillSync(buffer: Uint8Array): Uint8Array };
type NodeBuffer = Uint8Array & { toString(encoding: "latin1", start: number, end: number): string };

const mint: (prefix: string) => string = nodeMint() ?? ((prefix) => flat(`${prefix}${crypto.randomUUID()}`));

/**
 * V8 returns randomUUID() as a rope of about twenty pieces (≈ 550 heap bytes per id held); reading one character
 * flattens it in place to one ≈ 100-byte string, and the next GC frees the pieces (issue 28).
 */
function flat(id: string): string {
  id.charCodeAt(0);
  return id;
}

/**
 * On Node the id is written as bytes and read back as one flat Latin-1 string: half the cost of randomUUID plus
 * its flattening on Node 20 (issue 28). The entropy is node:crypto's, drawn 16 bytes per id from a pool refilled
 * with randomFillSync every 256 ids, as Node's own randomUUID caches its random bytes; no byte is used twice.
 */
function nodeMint(): ((prefix: string) => string) | undefined {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const Buffer = (globalThis as { Buffer?: { allocUnsafe(size: number): NodeBuffer; from(text: string, encoding: "latin1"): NodeBuffer } }).Buffer;
  let bits: NodeBits | undefined;
  try {
    bits = proc?.getBuiltinModule?.("node:crypto") as NodeBits | undefined;
  } catch {
    return undefined;
  }
  if (typeof bits?.randomFillSync !== "function" || Buffer === undefined) return undefined;
  const random = bits;
  const POOL = 16 * 256;
  const pool = Buffer.allocUnsafe(POOL);
  let offset = POOL;
  const HEX = Buffer.from("0123456789abcdef", "latin1");
  const PREFIX = 4;
  const out = Buffer.allocUnsafe(PREFIX + 36);
  return (prefix) => {
    if (offset === POOL) {
      random.randomFillSync(pool);
      offset = 0;
    }
    const at = offset;
    offset += 16;
    for (let i = 0; i < PREFIX; i++) out[i] = prefix.charCodeAt(i);
    let j = PREFIX;
    for (let i = 0; i < 16; i++) {
      if (i === 4 || i === 6 || i === 8 || i === 10) out[j++] = 45; // "-"
      let byte = pool[at + i]!;
      // RFC 9562 §5.4: version 4 in the high nibble of octet 6, variant 10 in the top bits of octet 8.
      if (i === 6) byte = (byte & 0x0f) | 0x40;
      else if (i === 8) byte = (byte & 0x3f) | 0x80;
      out[j++] = HEX[byte >> 4]!;
      out[j++] = HEX[byte & 15]!;
    }
    return out.toString("latin1", 0, PREFIX + 36);
  };
}

export const newExecutionId = (): string => mint("exe_");
export const newApprovalId = (): string => mint("apr_");
export const newIdempotencyKey = (): string => mint("idk_");
export const newGrantId = (): string => mint("grt_");
