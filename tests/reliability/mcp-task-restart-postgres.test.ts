// MCP Tasks across a server restart (issue 47, item 5): with the PostgreSQL approval coordinator and the PostgreSQL
// task store, a task created by one server is polled to completion through another on the same database. The v2 SDK
// Client with the MCP project's tasks client (@modelcontextprotocol/ext-tasks) calls a gated tool over loopback HTTP;
// the first server is closed; a second one, a new runtime and handler, listens on the same port; the approver decides
// there; the client's tasks/get polls reach only the second server. The handler runs exactly once.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createAgentRuntime, createCapabilityRegistry, defineGovernance } from "@orpc-agent/core";
import { createMCPHandler, type MCPHandler } from "@orpc-agent/mcp";
import { createPgApprovalCoordinator, createPgMCPTaskStore, INVOCATIONS_DDL, APPROVALS_DDL } from "@orpc-agent/postgres";
import { describe, expect, it, vi } from "vitest";
import { APPROVER, elicitationOptions, recordedRefund } from "../../packages/mcp/test/approvals/approvals-app.js";
import { closeEverythingAfterEachTest } from "../../packages/mcp/test/support/cleanup.js";
import { connectTasks, pollUntil, raw, REFUND_ARGS, startTask } from "../../packages/mcp/test/tasks/tasks-app.js";
import { toNodeRequestListener } from "../../packages/mcp/src/node/to-node-request-listener.js";
import { usePgSchema } from "../../packages/postgres/test/support/real-server.js";

closeEverythingAfterEachTest();

// A schema of this file's own; the DDL constants' default table names land in it (the pool's search_path).
const db = usePgSchema("rel_mcp_task_restart", [APPROVALS_DDL, INVOCATIONS_DDL], { max: 6 });
const { query } = db;

/** Everything one server process holds: its own runtime, handler and HTTP server, over the shared database. */
async function startServer(executions: unknown[], port = 0): Promise<{ url: URL; port: number; runtime: ReturnType<typeof createAgentRuntime>; close: () => Promise<void> }> {
  const registry = createCapabilityRegistry({ payments: { refund: recordedRefund(executions) } });
  const runtime = createAgentRuntime({ governance: defineGovernance({ registry }), audit: () => {}, approvals: { coordinator: createPgApprovalCoordinator({ query }), seal: false } });
  let node: ReturnType<typeof toNodeRequestListener> | undefined;
  const server: Server = createServer((req, res) => void node!(req, res));
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const bound = (server.address() as AddressInfo).port;
  const url = new URL(`http://127.0.0.1:${bound}/mcp`);
  const handler: MCPHandler = createMCPHandler(runtime, elicitationOptions(url, { tasks: { store: createPgMCPTaskStore({ query }), pollIntervalMs: 5 } }));
  node = toNodeRequestListener(handler);
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await handler.close();
    await new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  };
  return { url, port: bound, runtime, close };
}

/**
 * The client's fetch after the restart: keep-alive sockets it pooled to the first server were closed under it, and a
 * client meeting a restart sends again a request whose connection was closed before any answer came back.
 */
function retryingClosedConnections(fetchOnce: typeof fetch): typeof fetch {
  return async (input, init) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await fetchOnce(input, init);
      } catch (error) {
        const cause = (error as { cause?: { code?: string } }).cause;
        if (attempt >= 5 || !(cause?.code === "UND_ERR_SOCKET" || cause?.code === "ECONNRESET")) throw error;
      }
    }
  };
}

describe("MCP Tasks on PostgreSQL across a server restart", () => {
  it("a task created by one server completes through the next one on the same database, the handler running once", async () => {
    const executions: unknown[] = [];
    const first = await startServer(executions);
    const { session } = await connectTasks(first.url, "tok-dana", async () => "accept");
    const execution = await session.callTool("payments_refund", REFUND_ARGS);
    if (execution.kind !== "task") throw new Error(`expected a task, got ${execution.kind}`);
    const taskId = execution.handle.taskId;
    const [pending] = await first.runtime.approvals.list!({ status: "pending" });
    expect(pending).toBeDefined();
    // The client stops observing while the server goes away, keeping the task's reference (ext-tasks' handoff).
    let reference: Parameters<typeof session.resumeTask>[0] | undefined;
    await execution.handoff((saved) => void (reference = saved));
    expect(reference).toBeDefined();

    // The restart: the first server is gone before anyone decides; the second knows the task only from the database.
    await first.close();
    const second = await startServer(executions, first.port);
    vi.stubGlobal("fetch", retryingClosedConnections(globalThis.fetch));
    try {
      expect(second.url.href).toBe(first.url.href);
      expect((await raw(second.url, "tok-dana", "tasks/get", { taskId })).result).toMatchObject({ status: "input_required" });
      await second.runtime.approvals.decide(pending!.id, { status: "approved", approver: APPROVER });

      const resumed = await session.resumeTask(reference!);
      const { outcome } = await resumed.settle();
      expect(outcome.status).toBe("completed");
      const result = (outcome as { result: { structuredContent?: unknown; isError?: boolean } }).result;
      expect(result.structuredContent).toEqual({ status: "ok", data: { refunded: 5 } });
      expect(result.isError).toBe(false);
      expect(executions).toEqual([REFUND_ARGS]);
      expect((await second.runtime.approvals.get(pending!.id))?.status).toBe("consumed");

      // Polling again, through the second server, answers the same result and runs nothing.
      expect((await raw(second.url, "tok-dana", "tasks/get", { taskId })).result).toMatchObject({ status: "completed", result: { structuredContent: { status: "ok", data: { refunded: 5 } } } });
      expect(executions).toHaveLength(1);
    } finally {
      vi.unstubAllGlobals();
      await second.close();
    }
  });

  it("two instances on one database: a task created on one is polled through both at once, and resumed exactly once", async () => {
    const executions: unknown[] = [];
    const a = await startServer(executions);
    const b = await startServer(executions);
    try {
      const { taskId, approvalId } = await startTask(a.url);
      expect((await raw(b.url, "tok-dana", "tasks/get", { taskId })).result).toMatchObject({ status: "input_required" });
      await b.runtime.approvals.decide(approvalId, { status: "approved", approver: APPROVER });
      // Both instances see the decision at once; the store's compare-and-set lets one poller start the resume.
      await Promise.all(Array.from({ length: 8 }, (_, i) => raw(i % 2 === 0 ? a.url : b.url, "tok-dana", "tasks/get", { taskId })));
      for (const url of [a.url, b.url]) {
        expect((await pollUntil(url, "tok-dana", taskId)).result).toMatchObject({ status: "completed", result: { structuredContent: { status: "ok", data: { refunded: 5 } } } });
      }
      expect(executions).toEqual([REFUND_ARGS]);
      // Another principal polling either instance finds nothing (SI-8).
      for (const url of [a.url, b.url]) expect((await raw(url, "tok-priya", "tasks/get", { taskId })).error).toBeDefined();
    } finally {
      await a.close();
      await b.close();
    }
  });
});
