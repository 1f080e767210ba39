import type { Tool } from "ai";
import type { Actor, AgentRuntime, CapabilityDescriptor, ExecutionOptions, ExecutionResult } from "@orpc-agent/core";
import { generateTool } from "./generated-tool.js";
import type { ToolInputSchema } from "./input-schema.js";
import { concealedResult, toToolResult } from "./result.js";
import { composeSignals } from "./signal.js";
import { toolResultSchema } from "./tool-output.js";
import type { AISDKToolResult } from "./types.js";

/** What every tool of one build binds: the request's identity, never anything the model said (SI-3). */
export type ToolBinding<TContext> = {
  runtime: AgentRuntime<TContext>;
  actor: Actor;
  context: TContext;
  signal?: AbortSignal;
  correlationId?: string;
  /** Sees every runtime result with the SDK's call id, for the UI layer (`governChat`); never changes the result. */
  observe?: (toolCallId: string, result: ExecutionResult) => void;
};

/** One AI SDK tool for one descriptor (docs/architecture/spec/adapters.md#adapters-2-3), running every call through `runtime.invoke`. */
export function createGovernedTool<TContext>(descriptor: CapabilityDescriptor, inputSchema: ToolInputSchema, binding: ToolBinding<TContext>): Tool<unknown, AISDKToolResult> {
  // Only the id is captured: a tool set kept for a conversation must not pin describe's schema copies.
  const id = descriptor.id;
  return generateTool(descriptor, inputSchema, toolResultSchema, (args, callOptions) => invokeAsTool(id, args, binding, callOptions));
}

/** Never throws: an unexpected runtime rejection becomes the concealed envelope (docs/architecture/spec/adapters.md#adapters-1-2 rule 9). */
async function invokeAsTool<TContext>(
  capabilityId: string,
  args: unknown,
  binding: ToolBinding<TContext>,
  callOptions: { toolCallId?: string; abortSignal?: AbortSignal } | undefined,
): Promise<AISDKToolResult> {
  let release: (() => void) | undefined;
  try {
    const composed = composeSignals(binding.signal, callOptions?.abortSignal);
    release = composed.release;
    const options: ExecutionOptions<TContext> = { actor: binding.actor, context: binding.context, surface: "aiSdk" };
    if (composed.signal !== undefined) options.signal = composed.signal;
    if (binding.correlationId !== undefined) options.correlationId = binding.correlationId;
    const result = await binding.runtime.invoke(capabilityId, args, options);
    if (binding.observe !== undefined && typeof callOptions?.toolCallId === "string") binding.observe(callOptions.toolCallId, result);
    return toToolResult(result);
  } catch {
    return concealedResult();
  } finally {
    release?.();
  }
}
