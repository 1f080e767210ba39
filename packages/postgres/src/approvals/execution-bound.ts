import type { ApprovalRecord } from "@orpc-agent/core";

/** The runtime defaults the bound depends on; pass the same values as `createAgentRuntime({ defaults })`. */
export interface RecoveryRuntimeDefaults {
  /** @default 30_000, core's `defaults.timeoutMs` */
  timeoutMs?: number;
  /** @default 5_000, core's `defaults.policyTimeoutMs` */
  policyTimeoutMs?: number;
}

// Core's own defaults (createAgentRuntime) and its retry backoff default (runtime/plan.ts).
const CORE_TIMEOUT_MS = 30_000;
const CORE_POLICY_TIMEOUT_MS = 5_000;
const CORE_BACKOFF_MS = 250;

export type ResolvedRuntimeDefaults = { timeoutMs: number; policyTimeoutMs: number };

export function resolveRuntimeDefaults(defaults: RecoveryRuntimeDefaults | undefined): ResolvedRuntimeDefaults {
  if (defaults === undefined) return { timeoutMs: CORE_TIMEOUT_MS, policyTimeoutMs: CORE_POLICY_TIMEOUT_MS };
  if (typeof defaults !== "object" || defaults === null) throw new TypeError("defaults must be { timeoutMs?, policyTimeoutMs? }");
  const { timeoutMs = CORE_TIMEOUT_MS, policyTimeoutMs = CORE_POLICY_TIMEOUT_MS } = defaults;
  if (!isPositive(timeoutMs)) throw new TypeError(`defaults.timeoutMs must be a finite number > 0 (got ${String(timeoutMs)})`);
  if (!isPositive(policyTimeoutMs)) throw new TypeError(`defaults.policyTimeoutMs must be a finite number > 0 (got ${String(policyTimeoutMs)})`);
  return { timeoutMs, policyTimeoutMs };
}

/**
 * How long the execution that consumed `record` can go on after consuming it, in milliseconds: the execution
 * policies' batch (stage 9), then every attempt at its timeout with the backoffs between them (stage 11). The
 * capability's `timeoutMs` and `retry` come from the definition recorded with the approval; a record without a
 * readable one counts one attempt at `defaults.timeoutMs`.
 */
export function executionBoundMs(record: ApprovalRecord, defaults: ResolvedRuntimeDefaults): number {
  const capability = recordedCapability(record.definition);
  const timeoutMs = isPositive(capability?.timeoutMs) ? capability.timeoutMs : defaults.timeoutMs;
  const retries = capability?.retry?.maxAttempts;
  const reAttempts = typeof retries === "number" && Number.isSafeInteger(retries) && retries > 0 ? retries : 0;
  const backoffMs = isPositive(capability?.retry?.backoffMs) ? capability.retry.backoffMs : CORE_BACKOFF_MS;
  // Re-attempt n waits backoffMs × 2^(n−1) first (docs/architecture/spec/core.md#core-6-1), so all the waits add up to backoffMs × (2^n − 1).
  return defaults.policyTimeoutMs + (reAttempts + 1) * timeoutMs + backoffMs * (2 ** reAttempts - 1);
}

type RecordedCapability = { timeoutMs?: unknown; retry?: { maxAttempts?: unknown; backoffMs?: unknown } };

function recordedCapability(definition: unknown): RecordedCapability | undefined {
  const capability = isObject(definition) ? definition.capability : undefined;
  if (!isObject(capability)) return undefined;
  return { timeoutMs: capability.timeoutMs, retry: isObject(capability.retry) ? capability.retry : undefined };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isPositive(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value) && value > 0;
}
