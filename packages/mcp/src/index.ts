// Public entry of @orpc-agent/mcp (adapters.md §3): surface `mcp`.
export { createMCPServer } from "./create-mcp-server.js";
export { createMCPHttpHandler } from "./http/create-http-handler.js";
export { toNodeHandler } from "./http/to-node-handler.js";
export type { MCPServerHandle, MCPServerOptions, MCPSession } from "./options.js";
export type { MCPHttpHandlerOptions } from "./http/options.js";
