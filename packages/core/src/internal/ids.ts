// Identifiers minted by the runtime. Web Crypto's randomUUID exists on every supported platform; on Node the
// module's own is called directly, skipping Web Crypto's receiver check (~0.1 µs per id, two ids per call; issue 28).
// Looked up at load time, never statically imported, so core loads outside Node.
const randomUUID: () => string = loadNodeRandomUUID() ?? (() => crypto.randomUUID());

function loadNodeRandomUUID(): (() => string) | undefined {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  try {
    const mod = proc?.getBuiltinModule?.("node:crypto") as { randomUUID?: () => string } | undefined;
    return typeof mod?.randomUUID === "function" ? mod.randomUUID : undefined;
  } catch {
    return undefined;
  }
}

/**
 * V8 returns randomUUID() as a rope of about twenty pieces (≈ 550 heap bytes, 2 per call in flight); reading one
 * character flattens it in place to one ≈ 100-byte string, and the next GC frees the pieces (issue 28).
 */
function flat(id: string): string {
  id.charCodeAt(0);
  return id;
}

export const newExecutionId = (): string => flat(`exe_${randomUUID()}`);
export const newApprovalId = (): string => flat(`apr_${randomUUID()}`);
export const newIdempotencyKey = (): string => flat(`idk_${randomUUID()}`);
