import { ERROR_CODE_DEFAULTS, isErrorCode, type ErrorCode } from "./codes.js";
import type { FailureStage } from "./failure-stage.js";
import { modelErrorOf, type ModelError } from "./model-error.js";

const BRAND = Symbol.for("@orpc-agent/core.CapabilityError");

export type CapabilityErrorOptions = {
  code: ErrorCode;
  stage?: FailureStage;
  publicMessage?: string;
  retryable?: boolean;
  exposeToModel?: boolean;
  details?: unknown;
  cause?: unknown;
};

/**
 * The one error type of every governed failure. Omitted options take the defaults of the code table (docs/architecture/spec/core.md#core-9).
 * `cause` stays on the server: it is non-enumerable and never serialized.
 *
 * @example
 * import { CapabilityError } from "@orpc-agent/core";
 * throw new CapabilityError({ code: "EXECUTION_FAILED", retryable: true, publicMessage: "Upstream busy." });
 */
export class CapabilityError extends Error {
  readonly [BRAND] = true;
  declare readonly cause?: unknown;
  readonly code: ErrorCode;
  readonly stage: FailureStage;
  readonly publicMessage: string;
  readonly retryable: boolean;
  readonly exposeToModel: boolean;
  readonly details?: unknown;

  constructor(options: CapabilityErrorOptions) {
    if (typeof options !== "object" || options === null || !isErrorCode(options.code)) {
      throw new TypeError(`CapabilityError needs a known error code, got ${String((options as { code?: unknown } | null)?.code)}.`);
    }
    const defaults = ERROR_CODE_DEFAULTS[options.code];
    const publicMessage = options.publicMessage ?? defaults.message;
    super(`${options.code}: ${publicMessage}`);
    this.name = "CapabilityError";
    this.code = options.code;
    this.stage = options.stage ?? defaults.stage;
    this.publicMessage = publicMessage;
    this.retryable = options.retryable ?? defaults.retryable;
    this.exposeToModel = options.exposeToModel ?? defaults.exposeToModel;
    if (options.details !== undefined) this.details = options.details;
    // Non-enumerable so that spreading or JSON-serializing an error never carries the cause.
    Object.defineProperty(this, "cause", { value: options.cause, enumerable: false, writable: false, configurable: true });
  }

  /**
   * `true` for a `CapabilityError` of any copy of this module (a bundler's duplicate, a second install): `instanceof`
   * only knows this copy's class. Rebuild a foreign one with `new CapabilityError(...)` before trusting its methods.
   */
  static isInstance(value: unknown): value is CapabilityError {
    return typeof value === "object" && value !== null && (value as { [BRAND]?: unknown })[BRAND] === true;
  }

  /** Serializes as the model would see it (SI-9): stage, cause and stack never cross. */
  toJSON(): ModelError {
    return modelErrorOf(this);
  }
}

// What every adapter sends to a model for an error (docs/architecture/spec/core.md#core-9 "Model serialization").
export function toModelError(error: CapabilityError): ModelError {
  return modelErrorOf(error);
}
