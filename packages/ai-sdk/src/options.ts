import type { ActingAgent, Actor, CapabilityDescriptor, DescribeScope } from "@orpc-agent/core";
import { ConfigurationError, isWellFormedActor } from "@orpc-agent/core/adapter";

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
  /**
   * Tool name of a capability id whose `meta.adapters.aiSdk.toolName` is unset (docs/architecture/spec/adapters.md#adapters-1-4).
   * @default defaultToolName (every `.` becomes `_`)
   */
  toolNaming?: (capabilityId: string) => string;
  /** Composed with the loop's per-call `abortSignal` into every invocation (docs/architecture/spec/adapters.md#adapters-1-6). */
  signal?: AbortSignal;
  /** Forwarded to every invoke. */
  correlationId?: string;
  /**
   * The conversation every call belongs to, forwarded to every invoke as `conversationId`: a conversation-scoped
   * standing grant covers only calls carrying the same id (SI-13, docs/guides/standing-grants.md). The chat's id as
   * the server knows it (the chat it loaded for this session), never an id taken from model output.
   */
  conversationId?: string;
};

// Programmer errors surface at build as TypeErrors; nothing here ever reaches a model.

export function assertToolsOptions(options: AISDKToolsOptions<unknown>): void {
  if (typeof options !== "object" || options === null) {
    throw new ConfigurationError("toAISDKTools: options must be an object: { actor, context, scope?, filter?, toolNaming?, signal?, correlationId? }.");
  }
  if (!isWellFormedActor(options.actor)) {
    throw new ConfigurationError(
      "toAISDKTools: options.actor must be a well-formed actor ({ id: non-empty string, kind: user | service | automation | anonymous }) from the authenticated session.",
    );
  }
  const via = options.via as { id?: unknown; displayName?: unknown } | null | undefined;
  if (via !== undefined && (typeof via !== "object" || via === null || typeof via.id !== "string" || via.id.length === 0 || (via.displayName !== undefined && typeof via.displayName !== "string"))) {
    throw new ConfigurationError("toAISDKTools: options.via must be { id: non-empty string; displayName?: string }: the acting agent's identity from the host.");
  }
  if (options.filter !== undefined && typeof options.filter !== "function") throw new ConfigurationError("toAISDKTools: options.filter must be a function when given.");
  if (options.toolNaming !== undefined && typeof options.toolNaming !== "function") {
    throw new ConfigurationError("toAISDKTools: options.toolNaming must be a function (capabilityId) => string when given.");
  }
  if (options.signal !== undefined && !(options.signal instanceof AbortSignal)) throw new ConfigurationError("toAISDKTools: options.signal must be an AbortSignal when given.");
  if (options.correlationId !== undefined && (typeof options.correlationId !== "string" || options.correlationId.length === 0)) {
    throw new ConfigurationError("toAISDKTools: options.correlationId must be a non-empty string when given.");
  }
  if (options.conversationId !== undefined && (typeof options.conversationId !== "string" || options.conversationId.length === 0)) {
    throw new ConfigurationError("toAISDKTools: options.conversationId must be a non-empty string when given: the chat's id as the server knows it.");
  }
}
