import type { Transport } from "@modelcontextprotocol/server";
import { serveStdio, type StdioServerHandle } from "@modelcontextprotocol/server/stdio";
import type { AgentRuntime } from "@orpc-agent/core";
import { createGovernedServer } from "../server/governed-server.js";
import type { MCPOptions } from "../server/options.js";
import { prepareGovernedServer } from "../server/prepare.js";
import { bindStdioCancellation } from "./stdio-cancellation.js";

/** Options of {@link serveMCPStdio}. */
export type MCPStdioOptions<TContext = unknown> = MCPOptions<TContext> & {
  /**
   * 2025-era clients (`initialize`): `"serve"` them or `"reject"` them.
   * @default "serve"
   */
  legacy?: "serve" | "reject";
  /**
   * The transport to serve on.
   * @default the process's stdin/stdout
   */
  transport?: Transport;
};

/**
 * Serves the governed tools over stdio to a 2026-07-28 or 2025-era client (the SDK decides per connection).
 * stdio carries no credentials: `createContext` receives no `authInfo`; return a fixed least-privilege actor.
 *
 * @example
 * import type { AgentRuntime } from "@orpc-agent/core";
 * import { serveMCPStdio } from "@orpc-agent/mcp";
 * declare const runtime: AgentRuntime;
 * const handle = serveMCPStdio(runtime, { createContext: () => ({ actor: { id: "local-dev", kind: "user" }, context: {} }) });
 * process.on("SIGINT", () => void handle.close());
 */
export function serveMCPStdio<TContext>(runtime: AgentRuntime<TContext>, options: MCPStdioOptions<TContext>): StdioServerHandle {
  const prepared = prepareGovernedServer(runtime, options, "serveMCPStdio");
  return serveStdio(({ era }) => createGovernedServer(prepared, era, { kind: "stdio", bindCancellation: bindStdioCancellation }), {
    legacy: options.legacy ?? "serve",
    ...(options.transport !== undefined && { transport: options.transport }),
  });
}
