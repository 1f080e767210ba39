import type { StandardSchemaV1 } from "@standard-schema/spec";
import { CapabilityError } from "../../errors/capability-error.js";
import { toPublicIssues } from "../../errors/issues.js";
import { UnrepresentableInputError } from "../../internal/input-snapshot.js";
import { isPromiseLike } from "../../internal/promise.js";

export type Validated = { value: unknown };

/**
 * Stage 5 (and resume R8): the schema's own `~standard.validate`. The parsed value is what later stages see (SI-6).
 * Stays synchronous when the schema is.
 */
export function validateInput(schema: StandardSchemaV1 | undefined, raw: unknown): Validated | CapabilityError | Promise<Validated | CapabilityError> {
  if (!schema) return { value: raw };
  let result: StandardSchemaV1.Result<unknown> | Promise<StandardSchemaV1.Result<unknown>>;
  try {
    result = schema["~standard"].validate(raw);
  } catch (cause) {
    return new CapabilityError({ code: "INPUT_INVALID", details: { issues: [] }, cause });
  }
  if (isPromiseLike(result)) {
    return Promise.resolve(result).then(toValidated, (cause) => new CapabilityError({ code: "INPUT_INVALID", details: { issues: [] }, cause }));
  }
  return toValidated(result);
}

function toValidated(result: StandardSchemaV1.Result<unknown>): Validated | CapabilityError {
  if (result.issues) return new CapabilityError({ code: "INPUT_INVALID", details: { issues: toPublicIssues(result.issues) } });
  return { value: result.value };
}

/**
 * Stage 5's refusal of a validated value the snapshot cannot bind (a cycle, a Proxy, nesting or size past the bounds,
 * a read that throws): `INPUT_INVALID` with one issue naming where, never what (SI-6, SI-9).
 */
export function unrepresentableInput(cause: unknown): CapabilityError {
  if (!(cause instanceof UnrepresentableInputError)) return new CapabilityError({ code: "INTERNAL_ERROR", cause });
  return new CapabilityError({ code: "INPUT_INVALID", details: { issues: [{ path: cause.path, message: cause.message }] }, cause });
}
