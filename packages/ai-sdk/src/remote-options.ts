import type { CapabilityDescriptor, DescribeScope } from "@orpc-agent/core";
import type { CapabilityClient } from "@orpc-agent/core/client";
import { ConfigurationError } from "@orpc-agent/core/adapter";

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

// Programmer errors surface at build as TypeErrors; nothing here ever reaches a model.

/** docs/architecture/spec/distributed.md#distributed-1: a label of 1..200 characters, none of them control characters (checked again by clients). */
const CORRELATION_ID = /^[^\p{Cc}]{1,200}$/u;

/** Options of the local overload that name what the server fixes (docs/architecture/spec/adapters.md#adapters-2-6). */
const SERVER_FIXED = ["actor", "via", "context", "surface", "toolNaming"] as const;

/** Structural, like the contract itself (docs/architecture/spec/distributed.md#distributed-1): any object with the four methods is a client. */
export function assertCapabilityClient(target: unknown): asserts target is CapabilityClient {
  const client = target as Partial<Record<keyof CapabilityClient, unknown>> | null;
  const complete = typeof client === "object" && client !== null && (["describe", "invoke", "resume", "reconcile"] as const).every((m) => typeof client[m] === "function");
  if (!complete) {
    throw new ConfigurationError(
      "toAISDKTools: the first argument must be an AgentRuntime (it has a registry) or a CapabilityClient (describe, invoke, resume, reconcile), " +
        "for example createHTTPCapabilityClient from @orpc-agent/core/http.",
    );
  }
}

export function assertRemoteToolsOptions(options: RemoteAISDKToolsOptions): void {
  if (typeof options !== "object" || options === null) {
    throw new ConfigurationError("toAISDKTools: options must be an object: { invocationId, scope?, filter?, signal?, correlationId? }.");
  }
  if (typeof options.invocationId !== "function") {
    throw new ConfigurationError(
      "toAISDKTools: options.invocationId is required with a CapabilityClient: an async ({ capabilityId, input, toolCallId }) => id " +
        "that persists the id before resolving and recovers the same id on replay.",
    );
  }
  for (const key of SERVER_FIXED) {
    if ((options as Record<string, unknown>)[key] !== undefined) {
      throw new ConfigurationError(`toAISDKTools: options.${key} does not apply to a CapabilityClient: the server fixes actor, acting agent, context, surface and tool names.`);
    }
  }
  if (options.filter !== undefined && typeof options.filter !== "function") throw new ConfigurationError("toAISDKTools: options.filter must be a function when given.");
  if (options.signal !== undefined && !(options.signal instanceof AbortSignal)) throw new ConfigurationError("toAISDKTools: options.signal must be an AbortSignal when given.");
  if (options.correlationId !== undefined && (typeof options.correlationId !== "string" || !CORRELATION_ID.test(options.correlationId))) {
    throw new ConfigurationError("toAISDKTools: options.correlationId must be 1 to 200 printable characters when given.");
  }
}
