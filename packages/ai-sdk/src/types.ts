import type { Tool } from "ai";
import type { ActingAgent, Actor, CapabilityDescriptor, DescribeScope } from "@orpc-agent/core";

/**
 * Options of the local overload (docs/architecture/spec/adapters.md#adapters-2-2). Build one tool set per authenticated request:
 * the set is bound to this actor and context, and caching it across requests leaks visibility decisions.
 */
export type AISDKToolsOptions<TContext = unknown> = {
  /** Required; bound into every call. From the app's authenticated session, never from model output (SI-3). */
  actor: Actor;
  /**
   * The agent acting for the actor (this bot's service identity, the OAuth client of the session), recorded as
   * `actor.via` on every call: visible to policies (`scope.via`), audit, spans and approvers. From the host, never
   * from tool arguments (SI-3); replaces any `actor.via`.
   */
  via?: ActingAgent;
  /** Required; this request's oRPC context. */
  context: TContext;
  /** Forwarded verbatim to `runtime.describe`: decides what is discovered. Not authorization (SI-2). */
  scope?: DescribeScope;
  /** Decides what survives discovery. UX only: a filtered-out capability stays invocable (SI-2). */
  filter?: (descriptor: CapabilityDescriptor) => boolean;
  /** Tool name of a capability id when its meta names none; `defaultToolName` otherwise (docs/architecture/spec/adapters.md#adapters-1-4). */
  toolNaming?: (capabilityId: string) => string;
  /** Composed with the loop's per-call `abortSignal` into every invocation (docs/architecture/spec/adapters.md#adapters-1-6). */
  signal?: AbortSignal;
  /** Forwarded to every invoke. */
  correlationId?: string;
};

/**
 * What every generated tool returns, one deterministic shape per runtime status (docs/architecture/spec/adapters.md#adapters-1-5, docs/architecture/spec/adapters.md#adapters-2-4).
 * `approval-required` is not an error: the model tells the user and stops.
 */
export type AISDKToolResult =
  | { status: "ok"; data: unknown }
  | { status: "approval-required"; approvalId: string; message: string }
  | { status: "error"; error: { code: string; message: string; retryable: boolean; details?: unknown } };

/**
 * Options of the remote overload over a `CapabilityClient` (docs/architecture/spec/adapters.md#adapters-2-6, ADR-019). There is no actor,
 * context, surface or `toolNaming`: the server fixes actor, namespace, surface and names. Build one tool set per
 * authenticated request, as with the local overload.
 */
export type RemoteAISDKToolsOptions = {
  /**
   * Required. Allocates the invocation id of one execution before anything is sent. It MUST persist its mapping
   * before resolving, and on replay MUST recover the same id without relying on the model's regenerated
   * `toolCallId` (key it by conversation, step, capability id, canonical input hash and occurrence index;
   * docs/architecture/spec/distributed.md#distributed-4). A rejection or an empty id sends nothing and returns the concealed `INTERNAL_ERROR`.
   */
  invocationId: (call: { capabilityId: string; input: unknown; toolCallId: string }) => Promise<string>;
  /** Forwarded verbatim to `client.describe`: decides what is discovered. Not authorization (SI-2). */
  scope?: DescribeScope;
  /** Decides what survives discovery. UX only: a filtered-out capability stays invocable (SI-2). */
  filter?: (descriptor: CapabilityDescriptor) => boolean;
  /** Composed with the loop's per-call `abortSignal` into every invocation (docs/architecture/spec/adapters.md#adapters-1-6). */
  signal?: AbortSignal;
  /** Forwarded to every invocation as a label. */
  correlationId?: string;
};

/**
 * What every remote tool returns (docs/architecture/spec/adapters.md#adapters-2-6): the local shapes, with the invocation id on
 * `approval-required`, plus `outcome-unknown` when whether the effect happened cannot be said. Reconcile that
 * invocation before any further write.
 */
export type RemoteAISDKToolResult =
  | { status: "ok"; data: unknown }
  | { status: "approval-required"; approvalId: string; message: string; invocationId: string }
  | { status: "error"; error: { code: string; message: string; retryable: boolean; details?: unknown } }
  | { status: "outcome-unknown"; invocationId: string; message: string };

/**
 * The tools of a local build: every tool returns `AISDKToolResult`, so `InferUITools<AISDKToolSet>` types each
 * `tool-<name>` part's `output` as the envelope.
 */
export type AISDKToolSet = Record<string, Tool<unknown, AISDKToolResult>>;

/** The tools of a remote build; outputs are `RemoteAISDKToolResult`. */
export type RemoteAISDKToolSet = Record<string, Tool<unknown, RemoteAISDKToolResult>>;
