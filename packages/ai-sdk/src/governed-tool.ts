import { jsonSchema, tool, type Tool } from "ai";
import type { Actor, AgentRuntime, CapabilityDescriptor, ExecutionOptions } from "@orpc-agent/core";
import { concealedResult, toToolResult } from "./result.js";
import { composeSignals } from "./signal.js";
import type { AISDKToolResult } from "./types.js";

/** What every tool of one build binds: the request's identity, never anything the model said (SI-3). */
export type ToolBinding<TContext> = {
  runtime: AgentRuntime<TContext>;
  actor: Actor;
  context: TContext;
  signal?: AbortSignal;
  correlationId?: string;
};

// The schema parameter of `jsonSchema` differs in width across `ai` majors; naming it this way names none.
type JsonSchemaInput = Parameters<typeof jsonSchema>[0];

/**
 * One AI SDK tool for one descriptor (adapters.md §2.3). The input schema carries no `validate`, so raw
 * arguments reach the runtime, the single validation authority. Everything else stays unset: notably
 * `needsApproval` (the runtime is the only approval authority, §2.5) and `toModelOutput` (the envelope reaches
 * the model as default JSON on every major).
 */
export function createGovernedTool<TContext>(descriptor: CapabilityDescriptor, binding: ToolBinding<TContext>): Tool {
  return tool({
    description: descriptor.requiresApproval === true ? `${descriptor.description} Requires approval.` : descriptor.description,
    inputSchema: jsonSchema(descriptor.inputSchema as JsonSchemaInput),
    // The execute-options type is named differently on every major; only `abortSignal` is read, never tool context.
    // Optional chaining: a host framework calling `execute(args)` bare must still get a result, not a throw.
    execute: (args, callOptions) => invokeAsTool(descriptor.id, args, binding, callOptions?.abortSignal),
  });
}

/** Never throws: an unexpected runtime rejection becomes the concealed envelope (adapters.md §1.2 rule 9). */
async function invokeAsTool<TContext>(
  capabilityId: string,
  args: unknown,
  binding: ToolBinding<TContext>,
  abortSignal: AbortSignal | undefined,
): Promise<AISDKToolResult> {
  let release: (() => void) | undefined;
  try {
    const composed = composeSignals(binding.signal, abortSignal);
    release = composed.release;
    const options: ExecutionOptions<TContext> = { actor: binding.actor, context: binding.context, surface: "aiSdk" };
    if (composed.signal !== undefined) options.signal = composed.signal;
    if (binding.correlationId !== undefined) options.correlationId = binding.correlationId;
    return toToolResult(await binding.runtime.invoke(capabilityId, args, options));
  } catch {
    return concealedResult();
  } finally {
    release?.();
  }
}
