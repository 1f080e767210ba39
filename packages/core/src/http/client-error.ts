import type { CapabilityClientFailure } from "../client/types.js";

type Code = CapabilityClientFailure["code"];
type Operation = CapabilityClientFailure["operation"];

/**
 * How `describe` and `reconcile` reject: reads can fail loudly, because repeating them changes nothing.
 * `invoke` and `resume` never reject once a request may have left; they resolve to an envelope instead.
 *
 * @example
 * import type { CapabilityClient } from "@orpc-agent/core/client";
 * import { CapabilityClientError } from "@orpc-agent/core/http";
 * declare const client: CapabilityClient;
 * declare function signIn(): void;
 * try { await client.describe(); } catch (e) { if (e instanceof CapabilityClientError && e.code === "UNAUTHENTICATED") signIn(); }
 */
export class CapabilityClientError extends Error implements CapabilityClientFailure {
  override readonly name = "CapabilityClientError" as const;
  readonly operation: Operation;
  readonly code: Code;
  readonly status?: number;

  constructor(o: { operation: Operation; code: Code; message: string; status?: number; cause?: unknown }) {
    super(o.message, o.cause === undefined ? undefined : { cause: o.cause });
    this.operation = o.operation;
    this.code = o.code;
    if (o.status !== undefined) this.status = o.status;
  }
}
