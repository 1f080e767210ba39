import type { Actor, CapabilityDescriptor, DescribeScope } from "@orpc-agent/core";

/**
 * Options of the local overload (adapters.md §2.2). Build one tool set per authenticated request:
 * the set is bound to this actor and context, and caching it across requests leaks visibility decisions.
 */
export type AISDKToolsOptions<TContext = unknown> = {
  /** Required; bound into every call. From the app's authenticated session, never from model output (SI-3). */
  actor: Actor;
  /** Required; this request's oRPC context. */
  context: TContext;
  /** Forwarded verbatim to `runtime.describe`: decides what is discovered. Not authorization (SI-2). */
  scope?: DescribeScope;
  /** Decides what survives discovery. UX only: a filtered-out capability stays invocable (SI-2). */
  filter?: (descriptor: CapabilityDescriptor) => boolean;
  /** Tool name of a capability id when its meta names none; `defaultToolName` otherwise (adapters.md §1.4). */
  toolNaming?: (capabilityId: string) => string;
  /** Composed with the loop's per-call `abortSignal` into every invocation (adapters.md §1.6). */
  signal?: AbortSignal;
  /** Forwarded to every invoke. */
  correlationId?: string;
};

/**
 * What every generated tool returns, one deterministic shape per runtime status (adapters.md §1.5, §2.4).
 * `approval-required` is not an error: the model tells the user and stops.
 */
export type AISDKToolResult =
  | { status: "ok"; data: unknown }
  | { status: "approval-required"; approvalId: string; message: string }
  | { status: "error"; error: { code: string; message: string; retryable: boolean; details?: unknown } };
