import { isExposureSurface, type ExposureSurface } from "../vocabulary/types.js";
import type { ExecutionOptions, ResumeOptions } from "./types.js";

// Programmer errors are the only TypeErrors invoke and resume raise; everything else is a governed envelope.

function assertOptionalKey(value: unknown, name: string): void {
  if (value !== undefined && (typeof value !== "string" || value.length === 0)) {
    throw new TypeError(`${name} must be a non-empty string when given.`);
  }
}

function assertOptionalSignal(value: unknown): void {
  if (value !== undefined && !(value instanceof AbortSignal)) throw new TypeError("signal must be an AbortSignal when given.");
}

function assertOptionalFunction(value: unknown, name: string): void {
  if (value !== undefined && typeof value !== "function") throw new TypeError(`${name} must be a function when given.`);
}

export function assertExecutionOptions(id: unknown, options: ExecutionOptions<unknown>): ExposureSurface {
  if (typeof id !== "string" || id.length === 0) throw new TypeError("invoke: capabilityId must be a non-empty string.");
  if (typeof options !== "object" || options === null) throw new TypeError("invoke: options must be an object: { actor, context, surface? }.");
  // Only an omitted surface defaults; `null` is as invalid as any other non-surface (docs/architecture/spec/core.md#core-6).
  const surface = options.surface === undefined ? "direct" : options.surface;
  if (!isExposureSurface(surface)) throw new TypeError(`invoke: unknown surface ${JSON.stringify(surface)}.`);
  assertOptionalSignal(options.signal);
  assertOptionalKey(options.correlationId, "invoke: correlationId");
  assertOptionalKey(options.idempotencyKey, "invoke: idempotencyKey");
  assertOptionalKey(options.invocationId, "invoke: invocationId");
  assertOptionalKey(options.conversationId, "invoke: conversationId");
  assertOptionalFunction(options.onProgress, "invoke: onProgress");
  assertOptionalFunction(options.onEvent, "invoke: onEvent");
  return surface;
}

export function assertResumeOptions(approvalId: unknown, options: ResumeOptions<unknown>): void {
  if (typeof approvalId !== "string" || approvalId.length === 0) throw new TypeError("resume: approvalId must be a non-empty string.");
  if (typeof options !== "object" || options === null) throw new TypeError("resume: options must be an object: { context, ... }.");
  assertOptionalSignal(options.signal);
  if (options.expectedSurface !== undefined && !isExposureSurface(options.expectedSurface)) {
    throw new TypeError(`resume: unknown expectedSurface ${JSON.stringify(options.expectedSurface)}.`);
  }
  assertOptionalKey(options.correlationId, "resume: correlationId");
  assertOptionalKey(options.idempotencyKey, "resume: idempotencyKey");
  assertOptionalKey(options.invocationId, "resume: invocationId");
  assertOptionalFunction(options.onProgress, "resume: onProgress");
  assertOptionalFunction(options.onEvent, "resume: onEvent");
}
