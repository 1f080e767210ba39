// Issue 48, item 3: MCP Tasks across instances. A task is created on one instance, its approval decided on
// another, and its polls go round the instances through the proxy until it completes, the handler running once;
// the MCP project's tasks client (@modelcontextprotocol/ext-tasks) drives a whole task through the proxy too.
import { describe, expect, it } from "vitest";
import { closeEverythingAfterEachTest } from "../../packages/mcp/test/support/cleanup.js";
import { connectTasks, pollUntil, raw } from "../../packages/mcp/test/tasks/tasks-app.js";
import { verifyClusterAudit } from "./support/audit-verify.js";
import { useCluster, type Cluster } from "./support/cluster.js";
import { MANAGER } from "./support/cluster-config.js";

closeEverythingAfterEachTest();

let cluster: Cluster;
useCluster("orpc_mi_tasks", 2, (started) => (cluster = started));

const approvalIdIn = (value: unknown) => /apr_[0-9a-f-]+/.exec(JSON.stringify(value))?.[0];

describe("several instances, one PostgreSQL: MCP tasks", () => {
  it("created on one instance, decided on the other, polled round the instances to completion: one execution", async () => {
    const [a, b] = cluster.instances;
    cluster.proxy.pin(a!.name);
    const created = await raw(cluster.mcpUrl, "tok-dana", "tools/call", { name: "payments_refund", arguments: { orderId: "task-1", amount: 9 } });
    cluster.proxy.pin(undefined);
    expect(created.result).toMatchObject({ resultType: "task" });
    const taskId = created.result!.taskId as string;
    const approvalId = approvalIdIn(created.result);
    expect(approvalId).toBeDefined();

    // Each instance in turn reports the same state before the decision.
    for (let i = 0; i < 2; i++) expect((await raw(cluster.mcpUrl, "tok-dana", "tasks/get", { taskId })).result).toMatchObject({ status: "input_required" });
    expect((await cluster.decide(b!.name, approvalId!, { status: "approved", approver: MANAGER })).body).toMatchObject({ status: "approved" });
    // Polls reaching both instances at once: one of them starts the resume.
    const from = cluster.proxy.served.length;
    await Promise.all(Array.from({ length: 10 }, () => raw(cluster.mcpUrl, "tok-dana", "tasks/get", { taskId })));
    expect(new Set(cluster.proxy.served.slice(from))).toEqual(new Set([a!.name, b!.name]));
    const done = await pollUntil(cluster.mcpUrl, "tok-dana", taskId);
    expect(done.result).toMatchObject({ status: "completed", result: { structuredContent: { status: "ok", data: { refunded: 9 } } } });
    // Both instances answer the stored result afterwards, and run nothing.
    for (let i = 0; i < 2; i++) expect((await raw(cluster.mcpUrl, "tok-dana", "tasks/get", { taskId })).result).toMatchObject({ status: "completed" });
    expect(await cluster.effects("task-1")).toHaveLength(1);
    // Another principal finds nothing on either instance (SI-8).
    for (let i = 0; i < 2; i++) expect((await raw(cluster.mcpUrl, "tok-priya", "tasks/get", { taskId })).error).toBeDefined();
  });

  it("the ext-tasks client through the proxy: the user opens the link, the approver decides elsewhere, the task completes", async () => {
    const { session, inputs } = await connectTasks(cluster.mcpUrl, "tok-dana", async (params) => {
      const approvalId = approvalIdIn(params);
      // The approver's app is whichever instance answered last: the other one decides.
      const on = cluster.instances.find((i) => i.name !== cluster.proxy.served.at(-1))!.name;
      expect((await cluster.decide(on, approvalId!, { status: "approved", approver: MANAGER })).body).toMatchObject({ status: "approved" });
      return "accept";
    });
    const execution = await session.callTool("payments_refund", { orderId: "task-2", amount: 4 });
    if (execution.kind !== "task") throw new Error(`expected a task, got ${execution.kind}`);
    const { outcome } = await execution.settle();
    expect(outcome.status).toBe("completed");
    expect((outcome as { result: { structuredContent?: unknown } }).result.structuredContent).toEqual({ status: "ok", data: { refunded: 4 } });
    expect(inputs).toHaveLength(1);
    expect(await cluster.effects("task-2")).toHaveLength(1);
  });

  it("a task running on one instance is cancelled by a tasks/cancel that reaches the other: its handler is aborted there", async () => {
    const [a, b] = cluster.instances;
    cluster.proxy.pin(a!.name);
    const created = await raw(cluster.mcpUrl, "tok-dana", "tools/call", { name: "exports_slow", arguments: { key: "slow-1" } });
    expect(created.result).toMatchObject({ resultType: "task" });
    const taskId = created.result!.taskId as string;
    await a!.waitForLine(/^effect exports\.slow slow-1$/);

    cluster.proxy.pin(b!.name);
    const cancelled = await raw(cluster.mcpUrl, "tok-dana", "tasks/cancel", { taskId });
    cluster.proxy.pin(undefined);
    expect(cancelled.error).toBeUndefined();
    // The instance running the handler hears of the cancel only through the database.
    await a!.waitForLine(/^effect exports\.slow\.\S+ slow-1$/);
    expect(await cluster.effects("slow-1")).toEqual([
      { instance: a!.name, capability: "exports.slow" },
      // Aborted by the cancel (its code), not by a timeout.
      { instance: a!.name, capability: "exports.slow.CANCELLED" },
    ]);
    // The handler records its effect before the runtime answers and the outcome is written: wait for that write.
    expect((await pollUntil(cluster.mcpUrl, "tok-dana", taskId)).result).toMatchObject({ status: "cancelled", statusMessage: expect.stringMatching(/^Cancelled while running \(CANCELLED\)/) });
    for (let i = 0; i < 2; i++) expect((await raw(cluster.mcpUrl, "tok-dana", "tasks/get", { taskId })).result).toMatchObject({ status: "cancelled" });
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
