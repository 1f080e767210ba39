// Issue 48, item 3: a standing grant (SI-13) used concurrently from several instances. The grant is issued on one
// instance; 20 concurrent calls from MCP clients, spread by the proxy over both, find it: exactly its 3 uses run,
// every other call is the approval-required envelope and runs nothing.
import { describe, expect, it } from "vitest";
import { closeEverythingAfterEachTest } from "../../packages/mcp/test/support/cleanup.js";
import { connectModern } from "../../packages/mcp/test/support/handler.js";
import { verifyClusterAudit } from "./support/audit-verify.js";
import { useCluster, type Cluster } from "./support/cluster.js";
import { DANA_VIA_AGENT, MANAGER } from "./support/cluster-config.js";

closeEverythingAfterEachTest();

type Envelope = { status: string; approvalId?: string; data?: unknown; error?: { code: string } };
const envelopeOf = (result: unknown) => (result as { structuredContent: Envelope }).structuredContent;

let cluster: Cluster;
useCluster("orpc_mi_grants", 2, (started) => (cluster = started));

describe("several instances, one PostgreSQL: a standing grant", () => {
  it("20 concurrent calls through both instances on a 3-use grant: exactly 3 execute, the rest ask for approval", async () => {
    const [issuedOn] = cluster.instances;
    const issued = await cluster.issueGrant(issuedOn!.name, {
      capabilityId: "payments.credit",
      actor: DANA_VIA_AGENT,
      surface: "mcp",
      issuers: [MANAGER],
      grant: { uses: 3, ttlMs: 600_000, scope: "actor" },
    });
    expect(issued).toMatchObject({ ok: true, body: { usesLeft: 3 } });

    const clients = await Promise.all(Array.from({ length: 4 }, () => connectModern(cluster.mcpUrl, "tok-dana")));
    const from = cluster.proxy.served.length;
    const results = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => envelopeOf(await clients[i % clients.length]!.callTool({ name: "payments_credit", arguments: { orderId: `grant-${i}`, amount: 1 } }))),
    );
    expect(new Set(cluster.proxy.served.slice(from))).toEqual(new Set(cluster.instances.map((i) => i.name)));
    expect(results.filter((r) => r.status === "ok")).toHaveLength(3);
    expect(results.filter((r) => r.status !== "ok").map((r) => r.status)).toEqual(Array(17).fill("approval-required"));

    const rows = (await cluster.pool.query<{ n: number }>("select count(*)::int as n from effects where capability = 'payments.credit'")).rows;
    expect(rows[0]!.n).toBe(3);
    const stored = (await cluster.pool.query<{ uses_left: string }>("select uses_left from orpc_agent_grants where id = $1", [issued.body.id])).rows;
    expect(Number(stored[0]!.uses_left)).toBe(0);
  });

  it("afterwards the audit chains of all instances verify together", async () => {
    await cluster.stop();
    const { run, chains, signers } = await verifyClusterAudit(cluster);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(signers).toEqual(["i0", "i1"]);
    expect(run.stdout).toContain(`in ${chains} chain(s)`);
    expect(run.stdout).toContain("intact");
  });
});
