// An instance serving MCP on stdio to one 2025-era client (Dana): a connection that outlives its calls. Decisions
// made on any instance reach it through the PostgreSQL decision feed, so it can send
// `notifications/elicitation/complete`.
import pg from "pg";
import type { AgentRuntime } from "../../../packages/core/src/index.ts";
import { serveMCPStdio } from "../../../packages/mcp/src/index.ts";
import { createPgDecisionFeed, createPgMCPElicitationStateStore, pgListenFromClient, type PgQuery } from "../../../packages/postgres/src/index.ts";
import { STATE_KEYS } from "./cluster-config.ts";

export function serveStdio(runtime: AgentRuntime<unknown>, o: { query: PgQuery; databaseUrl: string; decisionChannel: string }): { close: () => Promise<void> } {
  const listen = pgListenFromClient(() => new pg.Client({ connectionString: o.databaseUrl }));
  const handle = serveMCPStdio(runtime, {
    createContext: () => ({ actor: { id: "u_dana", kind: "user" }, context: {} }),
    approvals: { url: (record) => `https://approvals.example.test/requests/${record.id}` },
    urlElicitation: {
      keys: STATE_KEYS,
      store: createPgMCPElicitationStateStore({ query: o.query }),
      decisions: createPgDecisionFeed({ listen, query: o.query, decisionChannel: o.decisionChannel }),
    },
  });
  return {
    close: async () => {
      await handle.close();
      await listen.close();
    },
  };
}
