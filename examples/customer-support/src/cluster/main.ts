// `pnpm mcp:cluster`: the app's MCP endpoint as two instances behind a round-robin load balancer, on one PostgreSQL
// server (DATABASE_URL, else an embedded one started here). Point an MCP client at the one URL it prints: each of
// its requests reaches the next instance, so a call and its resume, or a task and its poll, cross processes.
// Ctrl-C stops the instances (audit drained), the balancer and the embedded server, and removes its folder.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { mcpTokens } from "../agent/people.js";
import { openClusterDatabase } from "./database.js";
import { startRoundRobinProxy, type Upstream } from "./round-robin-proxy.js";

const INSTANCES = 2;
const INSTANCE_ENTRY = fileURLToPath(new URL("./instance.ts", import.meta.url));

const database = await openClusterDatabase();
// The balancer's port first: every instance names it as its public URL. Its upstreams are filled in below.
const upstreams: Upstream[] = [];
const proxy = await startRoundRobinProxy(upstreams, Number(process.env.PORT ?? 3001)).catch(async (error: unknown) => {
  await database.stop();
  throw error;
});
// Identical on every instance, or a record sealed on one is refused on the other (and a requestState signed on one
// is refused on the other). Fresh per start unless set: pending approvals then do not survive a restart of the cluster.
const keys = {
  APPROVAL_SEAL_SECRET: process.env.APPROVAL_SEAL_SECRET ?? randomBytes(32).toString("base64url"),
  MCP_STATE_SECRET: process.env.MCP_STATE_SECRET ?? randomBytes(32).toString("base64url"),
};

const children: ChildProcess[] = [];
const startInstance = (name: string): Promise<Upstream> => {
  // The same loader flags this process runs with (`--conditions`, `--import tsx`).
  const child = spawn(process.execPath, [...process.execArgv, INSTANCE_ENTRY], {
    env: { ...process.env, ...keys, DATABASE_URL: database.url, CLUSTER_PUBLIC_URL: proxy.url.href, npm_lifecycle_event: `mcp:cluster ${name}` },
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on("line", (line) => {
      const ready = /^ready (\d+) (\d+)$/.exec(line);
      if (ready) resolve({ name, mcpPort: Number(ready[1]), webPort: Number(ready[2]) });
      else console.log(`[${name}] ${line}`);
    });
    child.once("exit", (code, signal) => reject(new Error(`instance ${name} exited before it was ready (${signal ?? code})`)));
  });
};

let stopping: Promise<void> | undefined;
const stop = (code: number) =>
  (stopping ??= (async () => {
    // Instances first (each drains its audit trail into the database), then the balancer, then the database.
    await Promise.all(
      children.map(async (child) => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = once(child, "exit");
        child.kill("SIGINT");
        await exited;
      }),
    );
    await proxy.close();
    await database.stop();
    process.exit(code);
  })());
process.on("SIGINT", () => void stop(0));
process.on("SIGTERM", () => void stop(0));

try {
  upstreams.push(...(await Promise.all(Array.from({ length: INSTANCES }, (_, i) => startInstance(`instance-${i + 1}`)))));
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  await stop(1);
}

console.log(`database: ${database.description}`);
// A throwaway loopback server's password is no secret: its URL lets you look at the shared tables with psql.
if (database.dataDir !== undefined) console.log(`  psql ${database.url}`);
upstreams.forEach((upstream, i) => console.log(`  ${upstream.name} (pid ${children[i]!.pid}): MCP on port ${upstream.mcpPort}, approvals page on port ${upstream.webPort}`));
console.log(`approvals page: ${proxy.url.href}?as=u_priya  (through the balancer; any instance decides)`);
for (const [token, actor] of Object.entries(mcpTokens)) console.log(`  Authorization: Bearer ${token}   acts as ${actor.id}`);
// The ready line, last: the one URL to give an MCP client.
console.log(`MCP endpoint: ${new URL("/mcp", proxy.url).href}  (round robin over ${upstreams.map((u) => u.name).join(", ")})`);
console.log("Ctrl-C to stop");
