import { tool, type Tool } from "ai";
import type { ToolInputSchema } from "./input-schema.js";
import type { AISDKToolResult, RemoteAISDKToolResult } from "./types.js";

/** What a generated tool shows the model: the same fields on a local descriptor and a remote one. */
export type ToolFace = { description: string; requiresApproval?: boolean };

/** The two call options the adapter reads; the rest (messages, tool context) never reaches the runtime (SI-3). */
export type ToolCallOptions = { toolCallId?: string; abortSignal?: AbortSignal } | undefined;

/** A generated tool's `execute`: raw arguments in, an envelope out, never a throw. */
export type ToolExecute = (args: unknown, callOptions: ToolCallOptions) => Promise<AISDKToolResult | RemoteAISDKToolResult>;

/**
 * The generated tool of adapters.md §2.3, shared by both overloads. The input schema carries no `validate`, so
 * raw arguments reach the governing side, the single validation authority. Everything else stays unset: notably
 * `needsApproval` (the runtime is the only approval authority, §2.5) and `toModelOutput` (the envelope reaches
 * the model as default JSON on every major).
 */
export function generateTool(face: ToolFace, inputSchema: ToolInputSchema, execute: ToolExecute): Tool {
  return tool({
    description: face.requiresApproval === true ? `${face.description} Requires approval.` : face.description,
    inputSchema,
    // The execute-options type is named differently on every major, so `execute` names none. Call options are
    // read with optional chaining: a host framework calling `execute(args)` bare still gets a result.
    execute,
  });
}
