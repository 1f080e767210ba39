// Memory held by stateful MCP sessions of one principal (issue 22, finding 3): without a cap, 1500 sessions of one
// user stay in memory until the process ends; with the default cap of 32 a principal holds at most 32. Both
// figures are measured in one run (retained heap after GC) and printed for the report.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, describe, expect, it } from "vitest";
import { createMCPHttpHandler, toNodeRequestListener, type MCPHttpHandlerOptions } from "@orpc-agent/mcp/v1";
import { createTestRuntime } from "./support/app.js";
import { createAgent, listen, type Listening } from "./support/http.js";
import { openSession, TOKENS } from "./support/mcp.js";

const SESSIONS = 1500;
const MiB = 1024 * 1024;
const agent = createAgent(8);
const servers: Listening[] = [];
afterAll(async () => {
  agent.destroy();
  for (const server of servers) await server.close();
});

function getGc(): () => void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (typeof exposed === "function") return exposed;
  setFlagsFromString("--expose-gc");
  return runInNewContext("gc") as () => void;
}

async function settledHeap(gc: () => void): Promise<number> {
  for (let i = 0; i < 4; i++) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return process.memoryUsage().heapUsed;
}

/** Retained heap after one user opened SESSIONS sessions and walked away from all of them. */
async function retainedBy(limits: Pick<MCPHttpHandlerOptions, "maxSessionsPerPrincipal" | "sessionIdleTimeoutMs">): Promise<number> {
  const gc = getGc();
  const { runtime } = createTestRuntime({ keepEvents: false });
  const handler = createMCPHttpHandler(runtime, {
    verifyToken: (token) => (token in TOKENS ? { token, clientId: "reliability", scopes: ["mcp"], expiresAt: Math.floor(Date.now() / 1000) + 3600 } : null),
    createContext: (session) => {
      const actor = TOKENS[session.authInfo?.token ?? ""];
      return actor ? { actor, context: { tenant: "t1" } } : null;
    },
    ...limits,
  });
  const server = await listen(toNodeRequestListener(handler));
  servers.push(server);
  await openSession(server.port, agent); // warm: code paths compiled, module state allocated
  const before = await settledHeap(gc);
  for (let opened = 0; opened < SESSIONS; opened += 10) {
    await Promise.all(Array.from({ length: 10 }, () => openSession(server.port, agent)));
  }
  return (await settledHeap(gc)) - before;
}

describe("stateful MCP sessions of one principal are bounded (SI-3)", () => {
  it(`SI-3: ${SESSIONS} abandoned sessions of one user retain at most the cap's worth of memory`, async () => {
    // The behaviour before the cap: no per-principal limit, no idle expiry within the test.
    const uncapped = await retainedBy({ maxSessionsPerPrincipal: 1_000_000 });
    const capped = await retainedBy({});
    console.log(`retained by ${SESSIONS} sessions of one user: uncapped ${(uncapped / MiB).toFixed(1)} MiB, default cap ${(capped / MiB).toFixed(1)} MiB`);
    expect(uncapped).toBeGreaterThan(10 * MiB);
    expect(capped).toBeLessThan(4 * MiB);
  });
});
