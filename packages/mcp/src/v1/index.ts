// `@orpc-agent/mcp/v1`: the v1 SDK path (`@modelcontextprotocol/sdk` ^1, 2025-11-25 at most), kept for one major
// so deployments can move when they choose; deprecated (see docs/guides/mcp-migration.md). Surface `mcp`.
export { createMCPServer } from "./create-mcp-server.js";
export { createMCPHttpHandler } from "./http/create-http-handler.js";
export { toNodeRequestListener } from "./http/to-node-request-listener.js";
export { toNodeHandler } from "./http/deprecated-names.js";
export type { MCPServerHandle, MCPServerOptions, MCPSession } from "./options.js";
export type { MCPHttpHandlerOptions } from "./http/options.js";
