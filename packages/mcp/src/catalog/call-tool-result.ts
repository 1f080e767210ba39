import type { McpCallToolResult as CallToolResult } from "./wire-types.js";
import { CONCEALED_ENVELOPE, type MCPEnvelope } from "./envelope.js";

/**
 * Every result carries the envelope twice, as text and as `structuredContent` (docs/architecture/spec/adapters.md#adapters-3-6). Both come from
 * one JSON serialization, so they are equal on every transport, in-memory included.
 */
export function toCallToolResult(envelope: MCPEnvelope): CallToolResult {
  let text: string;
  try {
    text = JSON.stringify(envelope);
  } catch {
    // Output JSON cannot carry (a BigInt, a cycle): concealed rather than a protocol error.
    text = JSON.stringify(CONCEALED_ENVELOPE);
  }
  const structured = JSON.parse(text) as MCPEnvelope;
  return { content: [{ type: "text", text }], structuredContent: structured, isError: structured.status === "error" };
}
