// `pnpm mcp:cluster` as a user runs it (issue 48, item 4): two instances of the MCP endpoint behind a round-robin
// balancer on an embedded PostgreSQL server. A v2 SDK client points at the one printed URL; its refund call, the
// manager's approval on the page and its resume alternate between the instances, and the refund runs exactly once,
// counted in the shared audit trail. SIGINT stops every process and removes the database.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEntry, type EntryProcess } from "./support/entry-process.js";

type Envelope = { status: string; approvalId?: string; url?: string; data?: unknown; error?: { code: string } };
const envelopeOf = (result: unknown) => (result as { structuredContent: Envelope }).structuredContent;

const cwd = mkdtempSync(join(tmpdir(), "orpc-agent-mcp-cluster-"));
let cluster: EntryProcess;
let mcpUrl: URL;
let databaseUrl: string;
let dataDir: string;
let instancePids: number[];
/** The instance that served each request the client made, from the balancer's `x-served-by`. */
const servedBy: string[] = [];
let client: Client;

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

beforeAll(async () => {
  cluster = startEntry("src/cluster/main.ts", cwd);
  mcpUrl = new URL(/^MCP endpoint: (\S+)/.exec(await cluster.waitFor(/^MCP endpoint: /))![1]!);
  databaseUrl = /psql (\S+)/.exec(await cluster.waitFor(/^\s+psql /))![1]!;
  dataDir = /embedded PostgreSQL in (\S+)/.exec(await cluster.waitFor(/^database: /))![1]!;
  instancePids = [...cluster.output().matchAll(/\(pid (\d+)\)/g)].map((m) => Number(m[1]));
  client = new Client({ name: "cluster-client", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
  await client.connect(
    new StreamableHTTPClientTransport(mcpUrl, {
      fetch: async (input, init) => {
        const headers = new Headers(init?.headers);
        headers.set("authorization", "Bearer demo-token-dana");
        const response = await fetch(input, { ...init, headers });
        servedBy.push(response.headers.get("x-served-by") ?? "?");
        return response;
      },
    }),
  );
}, 240_000);

afterAll(async () => {
  await client?.close();
  if (cluster?.child.exitCode === null && cluster.child.signalCode === null) {
    cluster.child.kill("SIGINT");
    await cluster.exited;
  }
  rmSync(cwd, { recursive: true, force: true });
}, 120_000);

/** The instances that served the client's requests while `step` ran. */
async function served<T>(step: () => Promise<T>): Promise<{ value: T; on: string[] }> {
  const from = servedBy.length;
  const value = await step();
  return { value, on: servedBy.slice(from) };
}

describe("pnpm mcp:cluster", () => {
  it("prints one MCP URL (the balancer's) and the approvals page behind it, with two instances on one PostgreSQL", () => {
    expect(instancePids).toHaveLength(2);
    expect(cluster.output()).toContain(`approvals page: ${new URL("/", mcpUrl).href}?as=u_priya`);
    expect(existsSync(dataDir)).toBe(true);
  });

  it("a refund asked on one instance, approved through the page on the other and resumed on the next runs once", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(["orders_refund", "approvals_resume"]));

    const asked = await served(async () =>
      envelopeOf(await client.callTool({ name: "orders_refund", arguments: { orderId: "o_1002", amountCents: 32_000, reason: "Keyboard arrived broken" } })),
    );
    expect(asked.value.status).toBe("approval-required");
    const approvalId = asked.value.approvalId!;
    // The link names the balancer, never an instance.
    expect(asked.value.url).toBe(`${new URL("/", mcpUrl).href}?as=u_priya#${encodeURIComponent(approvalId)}`);
    expect(asked.on).toHaveLength(1);
    const askedOn = asked.on[0]!;

    // Priya approves on the page through the balancer: whichever instance serves it decides in the shared database.
    const decided = await fetch(new URL(`/approvals/${encodeURIComponent(approvalId)}/decide?as=u_priya`, mcpUrl), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "decision=approved",
    });
    expect(decided.status).toBe(200);
    expect(await decided.text()).toContain("the MCP client completes the call");
    const decidedOn = decided.headers.get("x-served-by");
    expect(decidedOn).not.toBe(askedOn);

    // The resume reaches the instance after the one that decided: each step found the previous one's state in the database.
    const resumed = await served(async () => envelopeOf(await client.callTool({ name: "approvals_resume", arguments: { approvalId } })));
    expect(resumed.on).toHaveLength(1);
    expect(resumed.on[0]).not.toBe(decidedOn);
    expect(resumed.value).toMatchObject({ status: "ok", data: { orderId: "o_1002", amountCents: 32_000, approvedBy: "u_priya" } });

    // Again, wherever it lands: consumed.
    for (let i = 0; i < 2; i++) {
      expect(envelopeOf(await client.callTool({ name: "approvals_resume", arguments: { approvalId } }))).toMatchObject({ status: "error", error: { code: "APPROVAL_CONSUMED" } });
    }
    // Executions counted where every instance writes: the strict audit trail in the shared database.
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      const { rows } = await db.query<{ type: string }>(
        "select type from orpc_agent_audit_events where capability_id = 'orders.refund' and type in ('capability.started', 'capability.completed') order by id",
      );
      expect(rows.map((r) => r.type)).toEqual(["capability.started", "capability.completed"]);
    } finally {
      await db.end();
    }
  }, 120_000);

  it("SIGINT stops both instances, the balancer and the embedded server, and removes its folder", async () => {
    await client.close();
    cluster.child.kill("SIGINT");
    expect(await cluster.exited).toEqual({ code: 0, signal: null });
    for (const pid of instancePids) expect(isAlive(pid)).toBe(false);
    expect(existsSync(dataDir)).toBe(false);
    await expect(fetch(mcpUrl, { method: "POST" })).rejects.toThrow();
    const db = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 10_000 });
    await expect(db.connect()).rejects.toThrow();
  }, 120_000);
});
