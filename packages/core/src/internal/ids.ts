// Identifiers minted by the runtime. Web Crypto's randomUUID exists on every supported platform.
export const newExecutionId = (): string => `exe_${crypto.randomUUID()}`;
export const newApprovalId = (): string => `apr_${crypto.randomUUID()}`;
export const newIdempotencyKey = (): string => `idk_${crypto.randomUUID()}`;
