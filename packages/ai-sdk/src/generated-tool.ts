import { jsonSchema, tool, type Tool } from "ai";
import type { AISDKToolResult, RemoteAISDKToolResult } from "./types.js";

/** What a generated tool shows the model: the same fields on a local descriptor and a remote one. */
export type ToolFace = { description: string; inputSchema: object; requiresApproval?: boolean };

/** What `execute` hands on: the raw arguments and the only two call options the adapter reads. */
export type ToolCall = { args: unknown; toolCallId: string | undefined; abortSignal: AbortSignal | undefined };

// The schema parameter of `jsonSchema` differs in width across `ai` majors; naming it this way names none.
type JsonSchemaInput = Parameters<typeof jsonSchema>[0];

/**
 * The generated tool of adapters.md §2.3, shared by both overloads. The input schema carries no `validate`, so
 * raw arguments reach the governing side, the single validation authority. Everything else stays unset: notably
 * `needsApproval` (the runtime is the only approval authority, §2.5) and `toModelOutput` (the envelope reaches
 * the model as default JSON on every major).
 */
export function generateTool(face: ToolFace, run: (call: ToolCall) => Promise<AISDKToolResult | RemoteAISDKToolResult>): Tool {
  return tool({
    description: face.requiresApproval === true ? `${face.description} Requires approval.` : face.description,
    inputSchema: jsonSchema(face.inputSchema as JsonSchemaInput),
    // The execute-options type is named differently on every major; only `toolCallId` and `abortSignal` are read,
    // never tool context (SI-3). Optional chaining: a host framework calling `execute(args)` bare still gets a result.
    execute: (args, callOptions) => run({ args, toolCallId: callOptions?.toolCallId, abortSignal: callOptions?.abortSignal }),
  });
}
