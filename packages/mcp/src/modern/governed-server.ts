import { ProtocolError, ProtocolErrorCode, Server, type AuthInfo, type ListToolsResult } from "@modelcontextprotocol/server";
import { callTool } from "../call-tool.js";
import type { PreparedMCPServer } from "../prepare.js";
import { listTools } from "../list-tools.js";
import { PACKAGE_VERSION } from "../version.js";
import { ToolListingError } from "../wire-types.js";
import { resolveIdentity } from "./identity.js";
import type { MCPOptions, MCPRequestAuth } from "./options.js";

export type PreparedModernServer<TContext> = PreparedMCPServer<TContext, MCPOptions<TContext>>;

/**
 * One low-level v2 `Server` for one exchange (HTTP) or connection (stdio). Low-level on purpose: the list is per
 * actor and arguments reach the runtime unvalidated (adapters.md §3.1). Identity is resolved on every request.
 */
export function createGovernedServer<TContext>(prepared: PreparedModernServer<TContext>, era: MCPRequestAuth["era"], fixedAuth?: AuthInfo): Server {
  const { runtime, options, catalog, guidance } = prepared;
  const server = new Server(options.serverInfo ?? { name: "orpc-agent", version: PACKAGE_VERSION }, {
    capabilities: { tools: { listChanged: false } },
    // The list differs per actor: never cacheable by a shared cache, and stale the moment governance changes.
    cacheHints: { "tools/list": { ttlMs: 0, cacheScope: "private" } },
  });
  const authOf = (authInfo: AuthInfo | undefined): MCPRequestAuth => {
    const verified = authInfo ?? fixedAuth;
    return verified === undefined ? { era } : { era, authInfo: verified };
  };

  server.setRequestHandler("tools/list", async (_request, ctx) => {
    const identity = await resolveIdentity(options, authOf(ctx.http?.authInfo));
    try {
      return (await listTools(runtime, catalog, options, identity)) as ListToolsResult;
    } catch (error) {
      if (error instanceof ToolListingError) throw new ProtocolError(ProtocolErrorCode.InternalError, error.message);
      throw error;
    }
  });
  server.setRequestHandler("tools/call", async (request, ctx) => {
    const identity = await resolveIdentity(options, authOf(ctx.http?.authInfo));
    const { name, arguments: args } = request.params;
    return callTool(runtime, catalog, guidance, identity, { name, arguments: args, signal: ctx.mcpReq.signal });
  });
  return server;
}
