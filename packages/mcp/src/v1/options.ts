import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { MCPGovernanceOptions, MCPIdentity } from "../catalog/governance-options.js";
import { ConfigurationError } from "@orpc-agent/core/adapter";

/** What the transport verified about an MCP session: `authInfo` comes from bearer verification, never from the client. */
export type MCPSession = { sessionId?: string; authInfo?: AuthInfo };

export type { MCPIdentity } from "../catalog/governance-options.js";

export type MCPServerOptions<TContext = unknown> = MCPGovernanceOptions & {
  /**
   * Judges the session's verified credentials and returns who is asking; `null`/`undefined` refuses the session.
   * Called once per session and again whenever its credential changes (docs/architecture/spec/adapters.md#adapters-3-3).
   */
  createContext: (
    session: MCPSession,
  ) => MCPIdentity<TContext> | null | undefined | Promise<MCPIdentity<TContext> | null | undefined>;
};

export type MCPServerHandle = {
  /** The SDK's low-level server; one transport at a time. */
  readonly server: Server;
  /** Connects a transport, evicting the session identities when it closes. */
  connect(transport: Transport): Promise<void>;
};

/** TypeErrors for options `createMCPServer` cannot work with (docs/architecture/spec/adapters.md#adapters-3-1). */
export function assertServerOptions(options: unknown): asserts options is MCPServerOptions<unknown> {
  if (typeof options !== "object" || options === null) {
    throw new ConfigurationError("createMCPServer(runtime, options): options must be an object with a createContext function.");
  }
  const o = options as Record<string, unknown>;
  if (typeof o.createContext !== "function") {
    throw new ConfigurationError(
      "createMCPServer: options.createContext is required. Return { actor, context } from the session's verified authInfo (or a fixed least-privilege actor under stdio).",
    );
  }
  for (const key of ["filter", "toolNaming"] as const) {
    if (o[key] !== undefined && typeof o[key] !== "function") throw new ConfigurationError(`createMCPServer: options.${key} must be a function.`);
  }
  if (o.annotations !== undefined && o.annotations !== "derive" && o.annotations !== "meta-only") {
    throw new ConfigurationError('createMCPServer: options.annotations must be "derive" or "meta-only".');
  }
  assertServerInfo(o.serverInfo);
  assertApprovals(o.approvals);
}

function assertServerInfo(serverInfo: unknown): void {
  if (serverInfo === undefined) return;
  const info = serverInfo as { name?: unknown; version?: unknown } | null;
  if (typeof info !== "object" || info === null || typeof info.name !== "string" || typeof info.version !== "string") {
    throw new ConfigurationError("createMCPServer: options.serverInfo must be { name: string; version: string }.");
  }
}

function assertApprovals(approvals: unknown): void {
  if (approvals === undefined) return;
  if (typeof approvals !== "object" || approvals === null) throw new ConfigurationError("createMCPServer: options.approvals must be an object.");
  const { url, resumeTool } = approvals as { url?: unknown; resumeTool?: unknown };
  if (url !== undefined && typeof url !== "function") throw new ConfigurationError("createMCPServer: options.approvals.url must be a function.");
  if (resumeTool === undefined || typeof resumeTool === "boolean") return;
  const tool = resumeTool as { name?: unknown; description?: unknown } | null;
  if (typeof tool !== "object" || tool === null) {
    throw new ConfigurationError("createMCPServer: options.approvals.resumeTool must be a boolean or { name?, description? }.");
  }
  for (const key of ["name", "description"] as const) {
    if (tool[key] !== undefined && (typeof tool[key] !== "string" || tool[key] === "")) {
      throw new ConfigurationError(`createMCPServer: options.approvals.resumeTool.${key} must be a non-empty string.`);
    }
  }
}
