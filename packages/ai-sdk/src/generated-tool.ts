import { tool, type Tool } from "ai";
import type { ToolInputSchema } from "./input-schema.js";
import { toolMetadataOf } from "./tool-metadata.js";
import type { AISDKToolResult, RemoteAISDKToolResult } from "./types.js";

/** What a generated tool shows the model and the UI: the same fields on a local descriptor and a remote one. */
export type ToolFace = { id: string; description: string; risk: "low" | "medium" | "high" | "critical"; sideEffect: "none" | "read" | "write" | "destructive" | "external"; requiresApproval?: true };

/** The two call options the adapter reads; the rest (messages, tool context) never reaches the runtime (SI-3). */
export type ToolCallOptions = { toolCallId?: string; abortSignal?: AbortSignal } | undefined;

/**
 * A generated tool's `execute`: raw arguments in, an envelope out, never a throw. A streaming capability's tool returns
 * an async iterable instead: each value but the last is a preliminary result, the last the final one (`ai` 5+).
 */
export type ToolExecute<R extends AISDKToolResult | RemoteAISDKToolResult> = (args: unknown, callOptions: ToolCallOptions) => Promise<R> | AsyncIterable<R>;

/** The output schema of the envelope a tool returns. */
export type ToolOutputSchema<R> = NonNullable<Tool<unknown, R>["outputSchema"]>;

/**
 * The generated tool of docs/architecture/spec/adapters.md#adapters-2-3, shared by both overloads. The input schema carries no `validate`, so
 * raw arguments reach the governing side, the single validation authority. The output schema describes the
 * envelope (typed UI parts) and `metadata` reaches the UI's `toolMetadata`; neither is sent to the model.
 * `needsApproval` and `toModelOutput` stay unset: the runtime is the only approval authority (docs/architecture/spec/adapters.md#adapters-2-5) and the
 * envelope reaches the model as default JSON on every major.
 */
export function generateTool<R extends AISDKToolResult | RemoteAISDKToolResult>(
  face: ToolFace,
  inputSchema: ToolInputSchema,
  outputSchema: ToolOutputSchema<R>,
  execute: ToolExecute<R>,
): Tool<unknown, R> {
  const definition = {
    description: face.requiresApproval === true ? `${face.description} Requires approval.` : face.description,
    inputSchema,
    outputSchema,
    // `ai` 5 has no tool metadata and ignores the key; a non-literal keeps its type check quiet.
    metadata: toolMetadataOf(face),
    // The execute-options type is named differently on every major, so `execute` names none. Call options are
    // read with optional chaining: a host framework calling `execute(args)` bare still gets a result.
    execute,
  };
  // `tool()` is the identity at runtime; its overloads cannot express a generic envelope type, so one cast names it.
  return tool(definition as unknown as Tool<unknown, R>) as Tool<unknown, R>;
}
