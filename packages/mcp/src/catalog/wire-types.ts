// The few MCP wire shapes the governed core produces. Structural on purpose: both SDK lines (v2 `@modelcontextprotocol/server`
// and the v1 `@modelcontextprotocol/sdk` subpath) accept them, so the core imports neither SDK.

export type McpToolAnnotationsWire = {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
};

export type McpTool = {
  name: string;
  title?: string;
  description?: string;
  inputSchema: { type: "object"; properties?: Record<string, object>; required?: string[]; [key: string]: unknown };
  outputSchema?: { type: "object"; [key: string]: unknown };
  annotations?: McpToolAnnotationsWire;
  _meta?: Record<string, unknown>;
};

export type McpListToolsResult = { tools: McpTool[] };

export type McpCallToolResult = {
  content: { type: "text"; text: string }[];
  structuredContent: Record<string, unknown>;
  isError: boolean;
};

/** JSON-RPC internal error (-32603) the SDKs answer for a failed listing; never a partial list. */
export class ToolListingError extends Error {
  readonly code = -32603;
}
