import pg from "pg";
import { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentProcedure, createAgentRuntime, createCapabilityRegistry, defineGovernance, type AgentRuntime } from "@orpc-agent/core";
import { createCapabilityRouter, createInProcessCapabilityClient, createInvocationService } from "@orpc-agent/core/server";
import { toAISDKTools } from "@orpc-agent/ai-sdk";
import { createPgAuditSink, createPgInvocationJournal, INVOCATIONS_DDL, pgQueryFromPool } from "@orpc-agent/postgres";
import { os } from "@orpc/server";
import { createAgent, jsonRpcMessages } from "./support/http.js";
import { openSession, serveMcp } from "./support/mcp.js";
import { dana } from "./support/app.js";

// Issue 34 item 3: a transient failure (AUDIT_UNAVAILABLE: the strict capability.started write failed on the
// real server, nothing ran) stays retryable on every surface. Concealment hides the code, never the retryable bit.
const url = process.env.TEST_DATABASE_URL;
// The workspace's global setup starts a server when the variable is unset, so this never skips.
if (url === undefined) throw new Error("TEST_DATABASE_URL is unset: run through the workspace (vitest.config.ts starts a server)");
const schema = `orpc_rel_transient_${process.pid}`;
const ap = agentProcedure(os);

describe("a retryable failure stays retryable (real PostgreSQL)", () => {
  let pool: pg.Pool;
  let runtime: AgentRuntime<Record<string, unknown>>;
  let ran = 0;
  beforeAll(async () => {
    pool = new pg.Pool({ connectionString: url, max: 4 });
    const query = pgQueryFromPool(pool, { onIdleError: () => {} });
    await pool.query(`drop schema if exists ${schema} cascade`);
    await pool.query(`create schema ${schema}`);
    await pool.query(INVOCATIONS_DDL.replaceAll("orpc_agent_invocations", `${schema}.orpc_agent_invocations`).replaceAll(`${schema}.orpc_agent_invocations_`, `${schema}_inv_`));
    const registry = createCapabilityRegistry({
      refund: ap
        .input(z.object({ orderId: z.string() }))
        .meta({ agent: { description: "Refund an order.", expose: { direct: true, mcp: true, aiSdk: true }, sideEffect: "write", risk: "medium" } })
        .handler(() => {
          ran++;
          return { ok: true };
        }),
    });
    // The audit table does not exist: the server refuses every strict started write.
    const sink = createPgAuditSink({ query, table: `${schema}.missing_audit` });
    runtime = createAgentRuntime({ governance: defineGovernance({ registry }), audit: { sinks: [sink], strict: true, onSinkError: () => {} } });
  });
  afterAll(async () => {
    await pool?.query(`drop schema if exists ${schema} cascade`);
    await pool?.end();
  });

  it("core: AUDIT_UNAVAILABLE is retryable and the handler did not run", async () => {
    const result = await runtime.invoke("refund", { orderId: "o1" }, { actor: dana, context: {} });
    expect(result).toMatchObject({ status: "failed", error: { code: "AUDIT_UNAVAILABLE", retryable: true } });
    expect(ran).toBe(0);
  });

  it("MCP over HTTP: concealed as INTERNAL_ERROR, still retryable", async () => {
    const server = await serveMcp(runtime);
    const agent = createAgent(4);
    try {
      const session = await openSession(server.port, agent);
      const list = jsonRpcMessages(await session.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" })))[0] as { result: { tools: { name: string }[] } };
      const name = list.result.tools[0]!.name;
      const call = await session.send(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name, arguments: { orderId: "o1" } } }));
      const message = jsonRpcMessages(call)[0] as { result: { structuredContent?: unknown; content: { text: string }[] } };
      const envelope = message.result.structuredContent ?? JSON.parse(message.result.content[0]!.text);
      expect(envelope).toEqual({ status: "error", error: { code: "INTERNAL_ERROR", message: "The operation failed.", retryable: true } });
    } finally {
      agent.destroy();
      await server.close();
    }
    expect(ran).toBe(0);
  });

  it("AI SDK tool: concealed as INTERNAL_ERROR, still retryable", async () => {
    const tools = await toAISDKTools(runtime, { actor: dana, context: {} });
    const [tool] = Object.values(tools);
    const out = await tool!.execute!({ orderId: "o1" }, { toolCallId: "c1", messages: [] });
    expect(out).toEqual({ status: "error", error: { code: "INTERNAL_ERROR", message: "The operation failed.", retryable: true } });
    expect(ran).toBe(0);
  });

  it("remote client through the invocation service (Postgres journal), and the remote AI SDK tool: still retryable", async () => {
    const journal = createPgInvocationJournal({ query: pgQueryFromPool(pool), table: `${schema}.orpc_agent_invocations` });
    const service = createInvocationService({ journal, namespace: "rel", revision: "r1" });
    const router = createCapabilityRouter({
      service,
      runtime,
      surface: "aiSdk",
      resolve: async () => ({ actor: dana, context: {} }),
      authorize: { describe: () => true, invoke: () => true, resume: () => true, reconcile: () => true },
    });
    const client = createInProcessCapabilityClient(router, { context: {} });
    const remote = await client.invoke({ capabilityId: "refund", input: { orderId: "o1" }, invocationId: `inv-${crypto.randomUUID()}` });
    expect(remote).toMatchObject({ status: "failed", error: { code: "INTERNAL_ERROR", retryable: true } });

    const tools = await toAISDKTools(client, { invocationId: async () => `inv-${crypto.randomUUID()}` });
    const [tool] = Object.values(tools);
    const out = await tool!.execute!({ orderId: "o1" }, { toolCallId: "c2", messages: [] });
    expect(out).toMatchObject({ status: "error", error: { code: "INTERNAL_ERROR", retryable: true } });
    expect(ran).toBe(0);
  });
});
