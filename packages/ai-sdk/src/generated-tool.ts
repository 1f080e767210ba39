import { tool, type Tool } from "ai";
import type { ToolInputSchema } from "./input-schema.js";
import type { AISDKToolResult, RemoteAISDKToolResult } from "./types.js";

/** What a generated tool shows the model: the same fields on a local descriptor and a remote one. */
export type ToolFace = { description: string; requiresApproval?: boolean };

/** What `execute` hands on: the raw arguments and the only two call options the adapter reads. */
export type ToolCall = { args: unknown; toolCallId: string | undefined; abortSignal: AbortSignal | undefined };

/**
 * The generated tool of adapters.md §2.3, shared by both overloads. The input schema carries no `validate`, so
 * raw arguments reach the governing side, the single validation authority. Everything else stays unset: notably
 * `needsApproval` (the runtime is the only approval authority, §2.5) and `toModelOutput` (the envelope reaches
 * the model as default JSON on every major).
 */
export function generateTool(
  face: ToolFace,
  inputSchema: ToolInputSchema,
  run: (call: ToolCall) => Promise<AISDKToolResult | RemoteAISDKToolResult>,
): Tool {
  return tool({
    description: face.requiresApproval === true ? `${face.description} Requires approval.` : face.description,
    inputSchema,
    // The execute-options type is named differently on every major; only `toolCallId` and `abortSignal` are read,
    // never tool context (SI-3). Optional chaining: a host framework calling `execute(args)` bare still gets a result.
    execute: (args, callOptions) => run({ args, toolCallId: callOptions?.toolCallId, abortSignal: callOptions?.abortSignal }),
  });
}
