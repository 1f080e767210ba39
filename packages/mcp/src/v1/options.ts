import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { MCPGovernanceOptions, MCPIdentity } from "../catalog/governance-options.js";

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
