import { PARAMS_PER_EVENT } from "./statements.js";

export type BatchOptions = { size?: number; flushMs?: number };
export type BatchSettings = { size: number; flushMs: number };

const DEFAULT_SIZE = 50;
const DEFAULT_FLUSH_MS = 250;
/** 65 535 bind parameters ÷ 10 columns (docs/architecture/spec/postgres.md#postgres-7-2). */
export const MAX_BATCH_SIZE = Math.floor(65_535 / PARAMS_PER_EVENT);

/** Validates `batch` at construction; `undefined` means one awaited INSERT per event. */
export function batchSettings(batch: unknown): BatchSettings | undefined {
  if (batch === undefined) return undefined;
  if (typeof batch !== "object" || batch === null || Array.isArray(batch)) {
    throw new TypeError("Invalid batch: pass { size?, flushMs? } or omit it for one INSERT per event");
  }
  const { size = DEFAULT_SIZE, flushMs = DEFAULT_FLUSH_MS } = batch as BatchOptions;
  if (typeof size !== "number" || !Number.isInteger(size) || size < 1 || size > MAX_BATCH_SIZE) {
    throw new TypeError(`Invalid batch: size must be an integer from 1 to ${MAX_BATCH_SIZE} (got ${String(size)})`);
  }
  if (typeof flushMs !== "number" || !Number.isFinite(flushMs) || flushMs < 0) {
    throw new TypeError(`Invalid batch: flushMs must be a finite number >= 0 (got ${String(flushMs)})`);
  }
  return { size, flushMs };
}
