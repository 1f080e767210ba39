import type { ToolSet } from "ai";
import type { AISDKToolResult } from "../../src/index.js";

/**
 * Calls a tool's `execute` the way the AI SDK loop does. The execute-options type has a different name and
 * shape on every `ai` major; the adapter reads only `abortSignal`, so the other fields are plausible fillers.
 */
export async function runTool(tools: ToolSet, name: string, args: unknown, options: { abortSignal?: AbortSignal; toolCallId?: string } = {}) {
  const tool = tools[name];
  if (tool === undefined) throw new Error(`no tool named ${name}; the set has ${Object.keys(tools).join(", ")}`);
  const execute = tool.execute as unknown as (input: unknown, options: Record<string, unknown>) => Promise<AISDKToolResult>;
  const callOptions: Record<string, unknown> = { toolCallId: options.toolCallId ?? "call_1", messages: [], context: {} };
  if (options.abortSignal !== undefined) callOptions.abortSignal = options.abortSignal;
  return execute(args, callOptions);
}
