import type { Tool } from "ai";
import type { Actor, AgentRuntime, CapabilityDescriptor, ExecutionOptions, ExecutionResult, ProgressUpdate } from "@orpc-agent/core";
import { generateTool, type ToolCallOptions } from "./generated-tool.js";
import type { ToolInputSchema } from "./input-schema.js";
import { concealedResult, toToolResult } from "./result.js";
import { composeSignals } from "./signal.js";
import { handOff } from "./streaming/hand-off.js";
import { toolResultSchema } from "./tool-output.js";
import type { AISDKToolResult } from "./types.js";

/** What every tool of one build binds: the request's identity, never anything the model said (SI-3). */
export type ToolBinding<TContext> = {
  runtime: AgentRuntime<TContext>;
  actor: Actor;
  context: TContext;
  signal?: AbortSignal;
  correlationId?: string;
  /** The conversation of every call (SI-13): from the host, never from the model. */
  conversationId?: string;
  /** Sees every runtime result with the SDK's call id, for the UI layer (`governChat`); never changes the result. */
  observe?: (toolCallId: string, result: ExecutionResult) => void;
  /**
   * Receives the progress of every call with the SDK's call id, for the UI layer (`governChat`), which asked for it.
   * Absent for `toAISDKTools`: no `onProgress` is passed, so no update leaves the runtime (never to a surface that
   * did not ask).
   */
  progress?: (toolCallId: string, update: ProgressUpdate) => void;
};

/** One AI SDK tool for one descriptor (docs/architecture/spec/adapters.md#adapters-2-3), running every call through `runtime.invoke`. */
export function createGovernedTool<TContext>(descriptor: CapabilityDescriptor, inputSchema: ToolInputSchema, binding: ToolBinding<TContext>): Tool<unknown, AISDKToolResult> {
  // Only the id is captured: a tool set kept for a conversation must not pin describe's schema copies.
  const id = descriptor.id;
  if (descriptor.streaming === true) {
    return generateTool(descriptor, inputSchema, toolResultSchema, (args, callOptions) => streamAsTool(id, args, binding, callOptions));
  }
  return generateTool(descriptor, inputSchema, toolResultSchema, (args, callOptions) => invokeAsTool(id, args, binding, callOptions));
}

/** Never throws: an unexpected runtime rejection becomes the concealed envelope (docs/architecture/spec/adapters.md#adapters-1-2 rule 9). */
async function invokeAsTool<TContext>(capabilityId: string, args: unknown, binding: ToolBinding<TContext>, callOptions: ToolCallOptions): Promise<AISDKToolResult> {
  let release: (() => void) | undefined;
  try {
    const composed = composeSignals(binding.signal, callOptions?.abortSignal);
    release = composed.release;
    return await invokeOnce(capabilityId, args, binding, callOptions, composed.signal);
  } catch {
    return concealedResult();
  } finally {
    release?.();
  }
}

/**
 * A streaming capability's `execute`: an async generator the SDK iterates, each redacted event as a preliminary
 * `{ status: "ok", data }` and the outcome's envelope last (the SDK's final result, the one the model reads). Lazy:
 * nothing runs, and no listener is added, until the SDK asks for the first value.
 */
async function* streamAsTool<TContext>(capabilityId: string, args: unknown, binding: ToolBinding<TContext>, callOptions: ToolCallOptions): AsyncGenerator<AISDKToolResult, void, undefined> {
  const composed = composeSignals(binding.signal, callOptions?.abortSignal);
  try {
    yield* handOff<AISDKToolResult>((onEvent, signal) => invokeOnce(capabilityId, args, binding, callOptions, signal, onEvent), {
      preliminary: (event) => ({ status: "ok", data: event }),
      rejected: concealedResult,
      signal: composed.signal,
      // The runtime's output is the last event it handed over, the same object.
      repeats: (envelope, lastEvent) => envelope.status === "ok" && envelope.data === lastEvent,
    });
  } finally {
    composed.release();
  }
}

/** The runtime call both shapes share: the bound identity, the composed signal, and progress only when asked for. */
async function invokeOnce<TContext>(
  capabilityId: string,
  args: unknown,
  binding: ToolBinding<TContext>,
  callOptions: ToolCallOptions,
  signal: AbortSignal | undefined,
  onEvent?: (event: unknown) => Promise<void>,
): Promise<AISDKToolResult> {
  const toolCallId = typeof callOptions?.toolCallId === "string" ? callOptions.toolCallId : undefined;
  const options: ExecutionOptions<TContext> = { actor: binding.actor, context: binding.context, surface: "aiSdk" };
  if (signal !== undefined) options.signal = signal;
  if (binding.correlationId !== undefined) options.correlationId = binding.correlationId;
  if (binding.conversationId !== undefined) options.conversationId = binding.conversationId;
  if (onEvent !== undefined) options.onEvent = onEvent;
  const progress = binding.progress;
  if (progress !== undefined && toolCallId !== undefined) options.onProgress = (update) => progress(toolCallId, update);
  const result = await binding.runtime.invoke(capabilityId, args, options);
  if (binding.observe !== undefined && toolCallId !== undefined) binding.observe(toolCallId, result);
  return toToolResult(result);
}
