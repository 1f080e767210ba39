import type { Tool } from "ai";
import type { CapabilityClient, InvokeRequest, RemoteDescriptor, RemoteExecuteOptions, RemoteExecutionResult } from "@orpc-agent/core/client";
import { generateTool } from "./generated-tool.js";
import { toolInputSchema } from "./input-schema.js";
import { concealedRemoteResult, outcomeUnknownResult, toRemoteToolResult } from "./remote-result.js";
import { composeSignals } from "./signal.js";
import { handOff } from "./streaming/hand-off.js";
import { remoteToolResultSchema } from "./tool-output.js";
import type { RemoteAISDKToolsOptions } from "./remote-options.js";
import type { RemoteAISDKToolResult } from "./types.js";

/** What every remote tool of one build binds. No identity: the server authenticates the client (SI-3, D-1). */
export type RemoteToolBinding = {
  client: CapabilityClient;
  invocationId: RemoteAISDKToolsOptions["invocationId"];
  signal?: AbortSignal;
  correlationId?: string;
};

/** docs/architecture/spec/distributed.md#distributed-1: the ids a journal can key; a client refuses others before sending. */
const INVOCATION_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

/**
 * One AI SDK tool for one remote descriptor (docs/architecture/spec/adapters.md#adapters-2-3, docs/architecture/spec/adapters.md#adapters-2-6), running every call through `client.invoke`.
 * Its schema is wrapped per build: a server may change it between deployments.
 */
export function createRemoteTool(descriptor: RemoteDescriptor, binding: RemoteToolBinding): Tool<unknown, RemoteAISDKToolResult> {
  const id = descriptor.id;
  if (descriptor.streaming === true) {
    return generateTool(descriptor, toolInputSchema(descriptor.inputSchema), remoteToolResultSchema, (args, callOptions) =>
      streamRemotely(id, { args, toolCallId: callOptions?.toolCallId, abortSignal: callOptions?.abortSignal }, binding),
    );
  }
  return generateTool(descriptor, toolInputSchema(descriptor.inputSchema), remoteToolResultSchema, (args, callOptions) =>
    invokeRemotely(id, { args, toolCallId: callOptions?.toolCallId, abortSignal: callOptions?.abortSignal }, binding),
  );
}

/**
 * A remote streaming capability's `execute`: the server's events (over oRPC's event-iterator transport) as preliminary
 * `{ status: "ok", data }`, the translated final answer last; the same one-slot hand-off as the local tool, so the
 * next event is read from the connection only when the SDK asks for it. A replayed invocation has no events.
 */
async function* streamRemotely(capabilityId: string, call: RemoteCall, binding: RemoteToolBinding): AsyncGenerator<RemoteAISDKToolResult, void, undefined> {
  const composed = composeSignals(binding.signal, call.abortSignal);
  try {
    yield* handOff<RemoteAISDKToolResult>((onEvent, signal) => invokeRemotely(capabilityId, { ...call, abortSignal: signal }, { ...binding, signal: undefined }, onEvent), {
      preliminary: (event) => ({ status: "ok", data: event }),
      rejected: concealedRemoteResult,
      signal: composed.signal,
    });
  } finally {
    composed.release();
  }
}

/** The call as the remote path reads it: raw arguments, the SDK call id, the loop's signal. */
type RemoteCall = { args: unknown; toolCallId: string | undefined; abortSignal: AbortSignal | undefined };

/**
 * docs/architecture/spec/adapters.md#adapters-2-6: allocate the invocation id, then invoke with it. Never throws. Nothing is sent unless the
 * allocator committed a usable id; once the request may have left, anything but a readable answer is
 * `outcome-unknown`, because a rejection cannot say whether the effect ran (docs/architecture/spec/distributed.md#distributed-1, D-4).
 */
async function invokeRemotely(capabilityId: string, call: RemoteCall, binding: RemoteToolBinding, onEvent?: (event: unknown) => Promise<void>): Promise<RemoteAISDKToolResult> {
  let invocationId: unknown;
  try {
    invocationId = await binding.invocationId({ capabilityId, input: call.args, toolCallId: call.toolCallId ?? "" });
  } catch {
    return concealedRemoteResult();
  }
  if (typeof invocationId !== "string" || !INVOCATION_ID.test(invocationId)) return concealedRemoteResult();

  const request: InvokeRequest = { capabilityId, input: call.args, invocationId };
  if (binding.correlationId !== undefined) request.correlationId = binding.correlationId;
  const { signal, release } = composeSignals(binding.signal, call.abortSignal);
  let result: RemoteExecutionResult;
  try {
    const options: RemoteExecuteOptions = {};
    if (signal !== undefined) options.signal = signal;
    if (onEvent !== undefined) options.onEvent = onEvent;
    result = await binding.client.invoke(request, Object.keys(options).length === 0 ? undefined : options);
  } catch {
    return outcomeUnknownResult(invocationId);
  } finally {
    release();
  }
  return toRemoteToolResult(result, invocationId);
}
