// Identifiers minted by the runtime. Web Crypto's randomUUID exists on every supported platform.

/**
 * V8 returns randomUUID() as a rope of about twenty pieces (≈ 550 heap bytes, 2 per call in flight); reading one
 * character flattens it in place to one ≈ 100-byte string, and the next GC frees the pieces (issue 28).
 */
function flat(id: string): string {
  id.charCodeAt(0);
  return id;
}

export const newExecutionId = (): string => flat(`exe_${crypto.randomUUID()}`);
export const newApprovalId = (): string => flat(`apr_${crypto.randomUUID()}`);
export const newIdempotencyKey = (): string => flat(`idk_${crypto.randomUUID()}`);
