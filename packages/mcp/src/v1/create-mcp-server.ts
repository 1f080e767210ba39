import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type ListToolsResult } from "@modelcontextprotocol/sdk/types.js";
import type { AgentRuntime } from "@orpc-agent/core";
import { callTool } from "../catalog/call-tool.js";
import { callProgress, progressTokenOf } from "../catalog/progress.js";
import { listTools } from "../catalog/list-tools.js";
import type { MCPServerHandle, MCPServerOptions } from "./options.js";
import { prepareMCPServer, type PreparedMCPServer } from "../catalog/prepare.js";
import { createSessionIdentities } from "./session-identity.js";
import { PACKAGE_VERSION } from "../catalog/version.js";
import { ToolListingError } from "../catalog/wire-types.js";

/**
 * A governed MCP server on surface `mcp`: per-identity tool lists from `runtime.describe`, calls through
 * `runtime.invoke` with the request's abort signal, never a decision. Build one handle per MCP session.
 *
 * @example
 * import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
 * import type { AgentRuntime } from "@orpc-agent/core";
 * import { createMCPServer } from "@orpc-agent/mcp/v1";
 * declare const runtime: AgentRuntime;
 * const mcp = createMCPServer(runtime, {
 *   createContext: () => ({ actor: { id: "local-dev", kind: "user" }, context: {} }),
 * });
 * await mcp.connect(new StdioServerTransport());
 */
export function createMCPServer<TContext>(runtime: AgentRuntime<TContext>, options: MCPServerOptions<TContext>): MCPServerHandle {
  return createServerHandle(prepareMCPServer(runtime, options, "createMCPServer"));
}

/** One low-level SDK `Server` and its identity cache, from a prepared configuration. */
export function createServerHandle<TContext>({ runtime, options, catalog, guidance }: PreparedMCPServer<TContext, MCPServerOptions<TContext>>): MCPServerHandle {
  // The low-level Server on purpose: the list is per actor and arguments must reach the runtime unvalidated (docs/architecture/spec/adapters.md#adapters-3-1).
  const server = new Server(options.serverInfo ?? { name: "orpc-agent", version: PACKAGE_VERSION }, {
    capabilities: { tools: { listChanged: false } },
  });
  const identities = createSessionIdentities(options.createContext);

  server.setRequestHandler(ListToolsRequestSchema, async (_request, extra) => {
    const identity = await identities.resolve(extra);
    try {
      return (await listTools(runtime, catalog, options, identity)) as ListToolsResult;
    } catch (error) {
      // The v1 SDK answers its own McpError verbatim; a failed listing keeps the -32603 it always had.
      if (error instanceof ToolListingError) throw new McpError(ErrorCode.InternalError, error.message);
      throw error;
    }
  });
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    // Refusals are JSON-RPC errors, not tool results (docs/architecture/spec/adapters.md#adapters-3-5 step 1). A known session answers without a tick.
    const resolved = identities.resolve(extra);
    const identity = resolved instanceof Promise ? await resolved : resolved;
    const { name, arguments: args } = request.params;
    // Progress as on the main entry: only for a request that carries a token, on that request's own stream.
    const progressToken = progressTokenOf(extra._meta);
    const progress =
      progressToken === undefined
        ? undefined
        : callProgress((update) => extra.sendNotification({ method: "notifications/progress", params: { progressToken, ...update } }));
    try {
      return await callTool(runtime, catalog, guidance, identity, {
        name,
        arguments: args,
        signal: extra.signal,
        ...(progress !== undefined && { progress: progress.options }),
      });
    } finally {
      await progress?.close();
    }
  });

  // docs/architecture/spec/adapters.md#adapters-3-3 item 4: evict on close, whether the app connects `server` itself or overwrites `server.onclose`.
  server.onclose = () => identities.evictAll();
  return {
    server,
    async connect(transport: Transport) {
      const previous = transport.onclose;
      transport.onclose = () => {
        identities.evictAll();
        previous?.();
      };
      await server.connect(transport);
    },
  };
}
