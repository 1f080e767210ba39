// Issue 48, item 3: approvals by URL elicitation across instances, in both eras. 2026-07-28: the signed
// requestState of one instance is honoured by another (the same keys everywhere). 2025-11-25: the capabilities a
// client declared at `initialize` and its pending approval live in the PostgreSQL elicitation store, so a retry
// reaching another instance takes the same path as on one process.
import { describe, expect, it } from "vitest";
import { approvalIdOf, connectLegacyWithUrl, connectModernWithUrl, type UrlElicitation } from "../../packages/mcp/test/approvals/approvals-app.js";
import { closeEverythingAfterEachTest } from "../../packages/mcp/test/support/cleanup.js";
import { verifyClusterAudit } from "./support/audit-verify.js";
import { useCluster, type Cluster } from "./support/cluster.js";
import { MANAGER } from "./support/cluster-config.js";

closeEverythingAfterEachTest();

type Result = { structuredContent?: unknown; isError?: boolean };

let cluster: Cluster;
useCluster("orpc_mi_url", 2, (started) => (cluster = started));

/** The instance that did not answer the latest request: the approver's app is elsewhere. */
const otherThanLast = () => cluster.instances.find((i) => i.name !== cluster.proxy.served.at(-1))!.name;

async function urlRequired(call: Promise<unknown>): Promise<{ url: string; elicitationId: string }> {
  const error = (await call.then(
    () => undefined,
    (e: unknown) => e,
  )) as { code?: number; data?: { elicitations?: { url: string; elicitationId: string }[] } } | undefined;
  expect(error?.code, JSON.stringify(error)).toBe(-32042);
  return error!.data!.elicitations![0]!;
}

describe("several instances, one PostgreSQL: URL elicitation, 2026-07-28", () => {
  it("the elicitUrl comes from one instance, the approver decides on the other, the retry with requestState runs once", async () => {
    const seen: UrlElicitation[] = [];
    const client = await connectModernWithUrl(cluster.mcpUrl, "tok-dana", async (elicitation) => {
      seen.push(elicitation);
      expect((await cluster.decide(otherThanLast(), approvalIdOf(elicitation.url), { status: "approved", approver: MANAGER })).body).toMatchObject({ status: "approved" });
      return "accept";
    });
    const from = cluster.proxy.served.length;
    const result = (await client.callTool({ name: "payments_refund", arguments: { orderId: "url26-1", amount: 5 } })) as Result;
    expect(result.structuredContent).toEqual({ status: "ok", data: { refunded: 5 } });
    expect(seen).toHaveLength(1);
    expect(new Set(cluster.proxy.served.slice(from)).size).toBe(2);
    expect(await cluster.effects("url26-1")).toHaveLength(1);
  });

  it("a retry before the decision reaches the other instance and is asked again with the same link; the next one runs once", async () => {
    const seen: string[] = [];
    const client = await connectModernWithUrl(cluster.mcpUrl, "tok-dana", async (elicitation) => {
      seen.push(elicitation.url);
      if (seen.length === 2) await cluster.decide(otherThanLast(), approvalIdOf(elicitation.url), { status: "approved", approver: MANAGER });
      return "accept";
    });
    const result = (await client.callTool({ name: "payments_refund", arguments: { orderId: "url26-2", amount: 6 } })) as Result;
    expect(result.structuredContent).toEqual({ status: "ok", data: { refunded: 6 } });
    expect(seen).toHaveLength(2);
    expect(seen[1]).toBe(seen[0]);
    expect(await cluster.effects("url26-2")).toHaveLength(1);
  });
});

describe("several instances, one PostgreSQL: URL elicitation, 2025-11-25 retries", () => {
  it("initialize on one instance, the call on another: -32042 either way; retries round the instances find the same approval; one execution", async () => {
    const client = await connectLegacyWithUrl(cluster.mcpUrl, "tok-dana");
    const call = () => client.callTool({ name: "payments_refund", arguments: { orderId: "url25-1", amount: 7 } });
    const from = cluster.proxy.served.length;
    const first = await urlRequired(call());
    // Pending: each instance in turn answers the same approval, never a new one.
    for (let i = 0; i < 2; i++) expect((await urlRequired(call())).url).toBe(first.url);
    expect(new Set(cluster.proxy.served.slice(from))).toEqual(new Set(cluster.instances.map((i) => i.name)));
    expect(await cluster.effects("url25-1")).toHaveLength(0);
    const pending = (await cluster.pool.query("select count(*)::int as n from orpc_agent_approvals where status = 'pending' and capability_id = 'payments.refund'")).rows[0] as { n: number };
    expect(pending.n).toBe(1);

    await cluster.decide(otherThanLast(), approvalIdOf(first.url), { status: "approved", approver: MANAGER });
    expect(((await call()) as Result).structuredContent).toEqual({ status: "ok", data: { refunded: 7 } });
    expect(await cluster.effects("url25-1")).toHaveLength(1);
  });

  it("rejected on one instance: the retry on either answers APPROVAL_REJECTED and nothing runs", async () => {
    const client = await connectLegacyWithUrl(cluster.mcpUrl, "tok-dana");
    const call = () => client.callTool({ name: "payments_refund", arguments: { orderId: "url25-2", amount: 8 } });
    const first = await urlRequired(call());
    await cluster.decide(otherThanLast(), approvalIdOf(first.url), { status: "rejected", approver: MANAGER, comment: "no" });
    expect(((await call()) as Result).structuredContent).toMatchObject({ status: "error", error: { code: "APPROVAL_REJECTED" } });
    expect(await cluster.effects("url25-2")).toHaveLength(0);
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
