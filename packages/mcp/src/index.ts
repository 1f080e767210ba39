// Public entry of @orpc-agent/mcp (docs/architecture/spec/adapters.md#adapters-3, docs/architecture/spec/amendments-2026-12.md): surface `mcp` on the MCP TypeScript SDK v2,
// serving the 2026-07-28 revision and 2025-era clients. The Node adapter is `@orpc-agent/mcp/node`; the v1 SDK path
// is `@orpc-agent/mcp/v1`.
export { createMCPHandler, type MCPHandler } from "./http/create-handler.js";
export type { MCPAuthentication, MCPHandlerOptions } from "./http/handler-options.js";
export type { MCPOptions, MCPRequestAuth, MCPTraceCarrier } from "./server/options.js";
export { serveMCPStdio, type MCPStdioOptions } from "./stdio/serve-stdio.js";
export type { MCPGovernanceOptions, MCPIdentity } from "./catalog/governance-options.js";
export type { MCPTasksOption } from "./tasks/tasks-config.js";
export type { MCPDeclaredCapabilities, MCPElicitationStateStore, MCPPendingElicitation } from "./approvals/elicitation-state-store.js";
export { createInMemoryTaskStore, type MCPTaskRecord, type MCPTaskStatus, type MCPTaskPhase, type MCPTaskStore, type TaskStoreLimits } from "./tasks/task-store.js";
