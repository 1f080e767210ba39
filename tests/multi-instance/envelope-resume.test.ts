// Issue 48, item 3: the approval-required envelope and the resume tool behind a round-robin proxy. The MCP v2
// client (no URL elicitation declared) calls a gated tool on one instance, the approver decides on another, the
// resume reaches a third; quorum votes are cast on different instances; 50 concurrent resumes of one approval,
// spread over every instance, execute once. Executions are counted in the shared database.
import { describe, expect, it } from "vitest";
import { closeEverythingAfterEachTest } from "../../packages/mcp/test/support/cleanup.js";
import { connectModern } from "../../packages/mcp/test/support/handler.js";
import { verifyClusterAudit } from "./support/audit-verify.js";
import { useCluster, type Cluster } from "./support/cluster.js";
import { LEAD, MANAGER } from "./support/cluster-config.js";

closeEverythingAfterEachTest();

type Envelope = { status: string; approvalId?: string; data?: unknown; error?: { code: string } };
const envelopeOf = (result: unknown) => (result as { structuredContent: Envelope }).structuredContent;

let cluster: Cluster;
useCluster("orpc_mi_envelope", 3, (started) => (cluster = started));

/** The instances that served the requests made while `step` ran. */
async function servedDuring(step: () => Promise<unknown>): Promise<string[]> {
  const from = cluster.proxy.served.length;
  await step();
  return cluster.proxy.served.slice(from);
}

describe("several instances, one PostgreSQL: the envelope and the resume tool", () => {
  it("a gated call answered on one instance, decided on another and resumed through the proxy runs once", async () => {
    const client = await connectModern(cluster.mcpUrl, "tok-dana");
    let envelope!: Envelope;
    const calling = await servedDuring(async () => {
      envelope = envelopeOf(await client.callTool({ name: "payments_refund", arguments: { orderId: "env-1", amount: 5 } }));
    });
    expect(envelope.status).toBe("approval-required");
    const askedOn = calling.at(-1)!;
    // The approver's app runs on an instance other than the one that answered the call.
    const decidedOn = cluster.instances.find((i) => i.name !== askedOn)!.name;
    expect((await cluster.decide(decidedOn, envelope.approvalId!, { status: "approved", approver: MANAGER })).body).toMatchObject({ status: "approved" });

    let resumed!: Envelope;
    const resuming = await servedDuring(async () => {
      resumed = envelopeOf(await client.callTool({ name: "approvals_resume", arguments: { approvalId: envelope.approvalId } }));
    });
    expect(resumed).toMatchObject({ status: "ok", data: { refunded: 5 } });
    expect(await cluster.effects("env-1")).toHaveLength(1);
    // The resume reached another instance than the call.
    expect(resuming.at(-1)).not.toBe(askedOn);

    // Resuming again, wherever it lands, is refused and runs nothing.
    for (let i = 0; i < cluster.instances.length; i++) {
      const again = envelopeOf(await client.callTool({ name: "approvals_resume", arguments: { approvalId: envelope.approvalId } }));
      expect(again).toMatchObject({ status: "error", error: { code: "APPROVAL_CONSUMED" } });
    }
    expect(await cluster.effects("env-1")).toHaveLength(1);
  });

  it("quorum: two approvers vote on different instances; the first vote alone resumes nothing", async () => {
    const client = await connectModern(cluster.mcpUrl, "tok-dana");
    const envelope = envelopeOf(await client.callTool({ name: "payments_bulkRefund", arguments: { orderId: "quorum-1", amount: 40 } }));
    expect(envelope.status).toBe("approval-required");
    const [first, second] = cluster.instances;
    expect((await cluster.decide(first!.name, envelope.approvalId!, { status: "approved", approver: MANAGER })).body).toMatchObject({ status: "pending" });
    // One vote is not a quorum, on any instance.
    for (let i = 0; i < cluster.instances.length; i++) {
      const early = envelopeOf(await client.callTool({ name: "approvals_resume", arguments: { approvalId: envelope.approvalId } }));
      expect(early).toMatchObject({ status: "error", error: { code: "APPROVAL_PENDING" } });
    }
    // The same approver voting again on another instance does not make two.
    expect((await cluster.decide(second!.name, envelope.approvalId!, { status: "approved", approver: MANAGER })).body).toMatchObject({ error: { code: "APPROVAL_ALREADY_DECIDED" } });
    expect((await cluster.decide(second!.name, envelope.approvalId!, { status: "approved", approver: LEAD })).body).toMatchObject({ status: "approved" });
    const resumed = envelopeOf(await client.callTool({ name: "approvals_resume", arguments: { approvalId: envelope.approvalId } }));
    expect(resumed).toMatchObject({ status: "ok", data: { refunded: 40 } });
    expect(await cluster.effects("quorum-1")).toHaveLength(1);
  });

  it("50 concurrent resumes of one approved approval, spread over every instance, execute once", async () => {
    const client = await connectModern(cluster.mcpUrl, "tok-dana");
    const envelope = envelopeOf(await client.callTool({ name: "payments_refund", arguments: { orderId: "race-1", amount: 7 } }));
    await cluster.decide(cluster.instances.at(-1)!.name, envelope.approvalId!, { status: "approved", approver: MANAGER });
    const clients = await Promise.all(Array.from({ length: 5 }, () => connectModern(cluster.mcpUrl, "tok-dana")));
    let results!: Envelope[];
    const served = await servedDuring(async () => {
      results = await Promise.all(
        Array.from({ length: 50 }, async (_, i) => envelopeOf(await clients[i % clients.length]!.callTool({ name: "approvals_resume", arguments: { approvalId: envelope.approvalId } }))),
      );
    });
    expect(new Set(served)).toEqual(new Set(cluster.instances.map((i) => i.name)));
    expect(results.filter((r) => r.status === "ok")).toHaveLength(1);
    // Every other one is refused with a code, and none of them ran anything.
    expect([...new Set(results.filter((r) => r.status !== "ok").map((r) => `${r.status} ${r.error?.code}`))]).toEqual(["error APPROVAL_CONSUMED"]);
    const effects = await cluster.effects("race-1");
    expect(effects).toHaveLength(1);
  });

  it("afterwards the audit chains of all instances verify together", async () => {
    await cluster.stop();
    const { run, chains, signers } = await verifyClusterAudit(cluster);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(signers).toEqual(["i0", "i1", "i2"]);
    expect(run.stdout).toContain(`in ${chains} chain(s)`);
    expect(run.stdout).toContain("intact");
  });
});
