// Issue 48, item 3: `kill -9` of one instance in the middle of calls. Three instances behind the proxy; one is
// killed while it holds a journaled remote call inside its handler, an MCP resume inside its handler, a task
// running in the background and a burst of journaled calls. The survivors never run any of them again: the
// journaled calls answer `outcome-unknown` (in progress, then lease-lapsed) where the effect may have happened,
// the approval is consumed, the task ends failed with its effect unknown once its run lease lapses, and the
// database holds at most one execution per call. Afterwards the audit chains of all three instances, the killed
// one's too, verify together.
import { describe, expect, it } from "vitest";
import { createHTTPCapabilityClient } from "@orpc-agent/core/http";
import { closeEverythingAfterEachTest } from "../../packages/mcp/test/support/cleanup.js";
import { connectModern } from "../../packages/mcp/test/support/handler.js";
import { raw } from "../../packages/mcp/test/tasks/tasks-app.js";
import { verifyClusterAudit } from "./support/audit-verify.js";
import { useCluster, type Cluster } from "./support/cluster.js";
import { MANAGER } from "./support/cluster-config.js";

closeEverythingAfterEachTest();

type Envelope = { status: string; approvalId?: string; data?: unknown; error?: { code: string } };
const envelopeOf = (result: unknown) => (result as { structuredContent: Envelope }).structuredContent;
const BURST = 20;

let cluster: Cluster;
useCluster("orpc_mi_kill", 3, (started) => (cluster = started));

describe("several instances, one PostgreSQL: kill -9 of one instance in the middle of calls", () => {
  it("no call runs twice; the journaled ones the killed instance held answer outcome-unknown; the audit chains still verify", async () => {
    const victim = cluster.instances[0]!;
    const remote = createHTTPCapabilityClient({ url: cluster.rpcUrl, headers: { authorization: "Bearer tok-dana" } });
    const mcp = await connectModern(cluster.mcpUrl, "tok-dana");

    // An approved MCP call whose resume the victim is running when it dies.
    const asked = envelopeOf(await mcp.callTool({ name: "payments_refund", arguments: { orderId: "hang-mcp", amount: 3 } }));
    await cluster.decide(cluster.instances[1]!.name, asked.approvalId!, { status: "approved", approver: MANAGER });
    // A task whose approved resume the victim runs in the background.
    const task = await raw(cluster.mcpUrl, "tok-dana", "tools/call", { name: "payments_refund", arguments: { orderId: "hang-task", amount: 6 } });
    const taskId = task.result!.taskId as string;
    const taskApproval = /apr_[0-9a-f-]+/.exec(JSON.stringify(task.result))![0];
    await cluster.decide(cluster.instances[2]!.name, taskApproval, { status: "approved", approver: MANAGER });

    cluster.proxy.pin(victim.name);
    const resuming = mcp.callTool({ name: "approvals_resume", arguments: { approvalId: asked.approvalId } }).then(
      (result) => ({ result }),
      (error: unknown) => ({ error }),
    );
    await victim.waitForLine(/^effect payments\.refund hang-mcp$/);
    expect((await raw(cluster.mcpUrl, "tok-dana", "tasks/get", { taskId })).result).toMatchObject({ status: "working" });
    await victim.waitForLine(/^effect payments\.refund hang-task$/);
    const hanging = remote.invoke({ capabilityId: "jobs.run", input: { key: "hang-rpc" }, invocationId: "inv-hang-rpc" });
    await victim.waitForLine(/^effect jobs\.run hang-rpc$/);
    // A burst of journaled calls in flight on the victim; some may finish before it dies, some may not start.
    const burst = Array.from({ length: BURST }, (_, i) => remote.invoke({ capabilityId: "jobs.run", input: { key: `burst-${i}` }, invocationId: `inv-burst-${i}` }));
    await victim.waitForLine(/^effect jobs\.run burst-/);

    await victim.kill9();
    cluster.proxy.remove(victim.name);
    cluster.proxy.pin(undefined);

    // What the clients saw when the instance died.
    expect(await hanging).toMatchObject({ status: "outcome-unknown", invocationId: "inv-hang-rpc" });
    expect("error" in (await resuming)).toBe(true);
    const firstAnswers = await Promise.all(burst);
    for (const answer of firstAnswers) expect(["completed", "outcome-unknown"]).toContain(answer.status);

    // The survivors: the killed call's claim is in progress, then lapses; it is never run again.
    const retried = await remote.invoke({ capabilityId: "jobs.run", input: { key: "hang-rpc" }, invocationId: "inv-hang-rpc" });
    expect(retried).toMatchObject({ status: "outcome-unknown" });
    expect(["in-progress", "lease-lapsed"]).toContain((retried as { reason: string }).reason);
    const lapsed = await untilSettledOrLapsed(() => remote.reconcile({ invocationId: "inv-hang-rpc" }));
    expect(lapsed).toMatchObject({ state: "unknown", reason: "lease-lapsed" });
    expect(await remote.invoke({ capabilityId: "jobs.run", input: { key: "hang-rpc" }, invocationId: "inv-hang-rpc" })).toMatchObject({ status: "outcome-unknown", reason: "lease-lapsed" });
    expect(await cluster.effects("hang-rpc")).toEqual([{ instance: victim.name, capability: "jobs.run" }]);

    // Each burst call: settled once (replayed from the journal), or unknown where its claim died with the victim,
    // or, when the victim never claimed it, run now on a survivor; never two executions.
    const seen: Record<string, number> = {};
    for (let i = 0; i < BURST; i++) {
      const state = await untilSettledOrLapsed(() => remote.reconcile({ invocationId: `inv-burst-${i}` }));
      const again = await remote.invoke({ capabilityId: "jobs.run", input: { key: `burst-${i}` }, invocationId: `inv-burst-${i}` });
      const effects = await cluster.effects(`burst-${i}`);
      expect(effects.length, `burst-${i}`).toBeLessThanOrEqual(1);
      if (state.state === "settled") expect(again).toMatchObject({ status: "completed", replayed: true });
      else if (state.state === "unknown") expect(again).toMatchObject({ status: "outcome-unknown", reason: "lease-lapsed" });
      else expect(again).toMatchObject({ status: "completed", replayed: false });
      if (again.status === "completed") expect(effects).toHaveLength(1);
      else expect(effects.every((e) => e.instance === victim.name)).toBe(true);
      const key = `${state.state}/${effects.length} effect(s)`;
      seen[key] = (seen[key] ?? 0) + 1;
    }
    console.log(`[multi-instance] the ${BURST} journaled calls in flight at the kill, by journal state after it: ${JSON.stringify(seen)}`);

    // The MCP resume the victim was running: the approval is consumed on every survivor, nothing runs again.
    for (let i = 0; i < 2; i++) {
      const again = envelopeOf(await mcp.callTool({ name: "approvals_resume", arguments: { approvalId: asked.approvalId } }));
      expect(again).toMatchObject({ status: "error", error: { code: "APPROVAL_CONSUMED" } });
    }
    expect(await cluster.effects("hang-mcp")).toHaveLength(1);

    // The task the victim was running: both survivors report the same state, and neither runs it again. Once its
    // run lease lapses, a poll on either survivor ends it failed, its effect unknown, and both then read that outcome.
    const polled = await Promise.all([0, 1].map(() => raw(cluster.mcpUrl, "tok-dana", "tasks/get", { taskId })));
    expect(polled[0]!.result?.status).toBe(polled[1]!.result?.status);
    console.log(`[multi-instance] after kill -9, the task the victim ran reads "${String(polled[0]!.result?.status)}" on the survivors`);
    const ended = await untilTaskLeaves(taskId);
    expect(ended).toMatchObject({
      status: "failed",
      error: { code: -32603, data: { status: "outcome-unknown", reason: "lease-lapsed", effectStatus: "unknown" } },
    });
    const after = await Promise.all([0, 1].map(() => raw(cluster.mcpUrl, "tok-dana", "tasks/get", { taskId })));
    expect(after.map((answer) => answer.result)).toEqual([ended, ended]);
    expect(await cluster.effects("hang-task")).toHaveLength(1);

    await cluster.stop();
    const { run, chains, signers } = await verifyClusterAudit(cluster);
    console.log(`[multi-instance] audit verify after kill -9:\n${run.stdout}${run.stderr}`);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    // The killed instance's chain too: linked to its last event, signed up to its last checkpoint.
    expect(signers).toEqual(["i0", "i1", "i2"]);
    expect(run.stdout).toContain(`in ${chains} chain(s)`);
    expect(run.stdout).toContain("intact");
  });
});

/** Polls the task through the proxy (alternating survivors) until it is no longer `working`. */
async function untilTaskLeaves(taskId: string): Promise<Record<string, unknown> | undefined> {
  for (;;) {
    const { result } = await raw(cluster.mcpUrl, "tok-dana", "tasks/get", { taskId });
    if (result?.status !== "working") return result;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

type Reconciled = Awaited<ReturnType<ReturnType<typeof createHTTPCapabilityClient>["reconcile"]>>;

/** Reads the journal until the row is no longer a live claim: the lease of a dead instance lapses on the journal clock. */
async function untilSettledOrLapsed(read: () => Promise<Reconciled>): Promise<Reconciled> {
  for (;;) {
    const state = await read();
    if (state.state !== "claimed") return state;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
