// One instance of `pnpm mcp:cluster`: the example's MCP endpoint and approvals page, as `pnpm mcp` serves them, but
// with everything an instance remembers between requests in the PostgreSQL database its siblings use. Started by
// main.ts with DATABASE_URL, the shared keys and the load balancer's URLs; prints "ready <mcpPort> <webPort>".
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createPgDecisionFeed, createPgMCPElicitationStateStore, createPgMCPTaskStore, createPgTaskCancellations, pgListenFromClient } from "@orpc-agent/postgres";
import pg from "pg";
import { createSupportRuntime } from "../agent/runtime.js";
import { openStorage } from "../agent/storage.js";
import { createStore } from "../domain/store.js";
import { startMcpServer } from "../mcp/server.js";
import { createApprovalsApp } from "../web/approvals-app.js";

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`cluster instance: ${name} is not set (start the cluster with pnpm mcp:cluster)`);
  return value;
};
const databaseUrl = env("DATABASE_URL");
const publicUrl = new URL(env("CLUSTER_PUBLIC_URL"));

// The approvals coordinator (with the decide statement's NOTIFY), grants and the strict audit sink, on the pool.
const storage = await openStorage({ databaseUrl });
const { runtime, shutdown } = createSupportRuntime(storage);
// One more connection per instance, outside the pool: LISTEN for decisions and task cancellations, both channels on it.
const listen = pgListenFromClient(() => new pg.Client({ connectionString: databaseUrl }));
// The demo's orders stay in each process's memory (a real app keeps them in its own database).
const store = createStore();

const web = createServer(createApprovalsApp(runtime, store));
await new Promise<void>((resolve) => web.listen(0, "127.0.0.1", resolve));
const mcp = await startMcpServer(runtime, store, 0, {
  // Links and the audience name the load balancer: a client never sees which instance answered.
  approvalsPage: new URL("/", publicUrl),
  publicUrl: new URL("/mcp", publicUrl),
  shared: {
    elicitationState: createPgMCPElicitationStateStore({ query: storage.query }),
    decisions: createPgDecisionFeed({ listen, query: storage.query }),
    tasks: createPgMCPTaskStore({ query: storage.query }),
    taskCancellations: createPgTaskCancellations({ listen, query: storage.query }),
  },
});
console.log(`ready ${mcp.port} ${(web.address() as AddressInfo).port}`);

// Ctrl-C reaches every process of the terminal's group, and main.ts forwards it too: stop once.
let stopping: Promise<void> | undefined;
const stop = () =>
  (stopping ??= (async () => {
    web.closeAllConnections();
    web.close();
    await mcp.close();
    await listen.close();
    // Let every audit write settle, flush the sink, then close the pool.
    await shutdown();
    await storage.close();
    process.exit(0);
  })());
process.on("SIGINT", () => void stop());
process.on("SIGTERM", () => void stop());
