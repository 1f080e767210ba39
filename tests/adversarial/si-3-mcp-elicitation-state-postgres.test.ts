// SI-3 on what the MCP v2 endpoint remembers for 2025-era clients when several instances share one PostgreSQL
// database (issue 48, "Several instances"): the URL elicitation capability a 2025-11-25 client declared in
// `initialize`, and the approval its `-32042` retry resumes. Two instances: two runtimes (each its own PostgreSQL
// approval coordinator) and two `createMCPHandler`s on their own loopback ports, sharing one schema through
// `urlElicitation.store`. Behaviour must not depend on which instance a request reaches, and what one principal's
// requests left behind must never serve another, even when a row is edited in SQL to sit under the other's key.
import { createAgentRuntime, createCapabilityRegistry, defineGovernance, type AgentRuntime } from "@orpc-agent/core";
import { createMCPHandler, type MCPHandlerOptions } from "@orpc-agent/mcp";
import { APPROVALS_DDL, createPgApprovalCoordinator, createPgMCPElicitationStateStore, INVOCATIONS_DDL } from "@orpc-agent/postgres";
import { beforeEach, describe, expect, it } from "vitest";
import { principalKey } from "../../packages/mcp/src/catalog/principal-key.js";
import { APPROVER, elicitationOptions, STATE_KEYS, recordedRefund } from "../../packages/mcp/test/approvals/approvals-app.js";
import { closeEverythingAfterEachTest } from "../../packages/mcp/test/support/cleanup.js";
import { listenModern } from "../../packages/mcp/test/support/handler.js";
import { usePgSchema } from "../../packages/postgres/test/support/real-server.js";
import { LEGACY_HEADERS, messagesOf, post } from "./support/mcp-v2.js";

closeEverythingAfterEachTest();

const TABLE = "orpc_agent_mcp_elicitation_state";

// A schema of this file's own; the DDL constants' default table names land in it (the pool's search_path).
const db = usePgSchema("adv_si3_mcp_elicitation", [APPROVALS_DDL, INVOCATIONS_DDL], { max: 8 });
const { query } = db;

// Every test makes the same call as the same users: each starts with nothing remembered.
beforeEach(async () => {
  await db.pool().query(`truncate table ${TABLE}`);
});

const ARGS = { orderId: "o1", amount: 5 };
const URL_CAPABILITIES = { elicitation: { url: {} } };
// The principal keys `createContext` resolves tok-dana and tok-priya to (approvals-app's users, through the OAuth client agent-1).
const DANA = principalKey({ id: "u_dana", kind: "user", via: { id: "agent-1" } });
const PRIYA = principalKey({ id: "u_priya", kind: "user", via: { id: "agent-1" } });

type Instance = { url: URL; runtime: AgentRuntime };
/** How a 2025-11-25 `tools/call` of the gated refund was answered: `-32042` (URL elicitation) or the envelope. */
type Asked = { code?: number; status?: string; approvalId?: string; refunded?: number };

/** One instance of the app: its own runtime and handler over the shared database; `shared: false` keeps the in-memory default. */
async function startInstance(executions: unknown[], shared = true): Promise<Instance> {
  const registry = createCapabilityRegistry({ payments: { refund: recordedRefund(executions) } });
  const runtime = createAgentRuntime({ governance: defineGovernance({ registry }), audit: () => {}, approvals: { coordinator: createPgApprovalCoordinator({ query }), seal: false } });
  const urlElicitation = { keys: STATE_KEYS, ...(shared && { store: createPgMCPElicitationStateStore({ query }) }) };
  const { url } = await listenModern((url) => createMCPHandler(runtime, { ...elicitationOptions(url), urlElicitation } as MCPHandlerOptions));
  return { url, runtime };
}

async function twoInstances(shared = true) {
  const executions: unknown[] = [];
  return { executions, a: await startInstance(executions, shared), b: await startInstance(executions, shared) };
}

async function initialize(instance: Instance, token: string, capabilities: object): Promise<void> {
  const body = { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities, clientInfo: { name: "raw", version: "1" } } };
  const response = await post(instance.url, JSON.stringify(body), LEGACY_HEADERS, token);
  await response.text();
  expect(response.status).toBe(200);
}

async function refund(instance: Instance, token: string): Promise<Asked> {
  const body = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "payments_refund", arguments: ARGS } };
  const [message] = await messagesOf(await post(instance.url, JSON.stringify(body), LEGACY_HEADERS, token));
  const m = message as {
    error?: { code: number; data?: { elicitations?: { elicitationId: string }[] } };
    result?: { structuredContent?: { status?: string; approvalId?: string; data?: { refunded?: number } } };
  };
  if (m.error !== undefined) return { code: m.error.code, approvalId: m.error.data?.elicitations?.[0]?.elicitationId };
  const content = m.result?.structuredContent;
  return { status: content?.status, approvalId: content?.approvalId, refunded: content?.data?.refunded };
}

const approve = (instance: Instance, id: string) => instance.runtime.approvals.decide(id, { status: "approved", approver: APPROVER });
const approvalCount = async () => Number((await db.pool().query("select count(*)::int as n from orpc_agent_approvals")).rows[0].n);
const URL_ELICITED = { code: -32042, approvalId: expect.stringMatching(/^apr_/) };
const ENVELOPE = { status: "approval-required", approvalId: expect.stringMatching(/^apr_/), refunded: undefined };

describe("SI-3: 2025-era elicitation state shared by two instances on one PostgreSQL database", () => {
  it("SI-3: initialize reaching instance A, tools/call reaching instance B: B finds the URL capability the client declared", async () => {
    const { a, b } = await twoInstances();
    await initialize(a, "tok-dana", URL_CAPABILITIES);
    expect(await refund(b, "tok-dana")).toEqual(URL_ELICITED);
  });

  it("SI-3: the control: with each instance's in-memory default, B has not heard the declaration and answers the envelope", async () => {
    const { a, b } = await twoInstances(false);
    await initialize(a, "tok-dana", URL_CAPABILITIES);
    expect(await refund(b, "tok-dana")).toEqual(ENVELOPE);
    expect(await refund(a, "tok-dana")).toEqual(URL_ELICITED);
  });

  it("SI-3: a -32042 from A, then the retries reaching B resume the same approval: no second approval, one execution", async () => {
    const { executions, a, b } = await twoInstances();
    await initialize(a, "tok-dana", URL_CAPABILITIES);
    const before = await approvalCount();
    const first = await refund(a, "tok-dana");
    expect(first).toEqual(URL_ELICITED);
    // Undecided: B asks again for the very same approval.
    expect(await refund(b, "tok-dana")).toEqual(first);
    expect(await approvalCount()).toBe(before + 1);
    await approve(a, first.approvalId!);
    expect(await refund(b, "tok-dana")).toEqual({ status: "ok", approvalId: undefined, refunded: 5 });
    expect(executions).toEqual([ARGS]);
    expect(await approvalCount()).toBe(before + 1);
  });

  it("SI-3: a second principal making the same call on B does not pick up the first's pending approval", async () => {
    const { executions, a, b } = await twoInstances();
    await initialize(a, "tok-dana", URL_CAPABILITIES);
    const danas = await refund(a, "tok-dana");
    expect(danas).toEqual(URL_ELICITED);
    await approve(a, danas.approvalId!);
    // priya never declared URL elicitation: dana's declaration does not cover her.
    expect(await refund(b, "tok-priya")).toEqual(ENVELOPE);
    await initialize(b, "tok-priya", URL_CAPABILITIES);
    const priyas = await refund(b, "tok-priya");
    expect(priyas).toEqual(URL_ELICITED);
    expect(priyas.approvalId).not.toBe(danas.approvalId);
    expect(await refund(a, "tok-priya")).toEqual(priyas);
    expect(executions).toEqual([]);
    // dana's approval is still hers, on either instance.
    expect(await refund(b, "tok-dana")).toEqual({ status: "ok", approvalId: undefined, refunded: 5 });
    expect(executions).toEqual([ARGS]);
  });

  it("SI-3: a pending row edited in SQL to sit under another principal's key covers nothing: a new approval of her own, nothing runs", async () => {
    const { executions, a, b } = await twoInstances();
    await initialize(a, "tok-dana", URL_CAPABILITIES);
    await initialize(a, "tok-priya", URL_CAPABILITIES);
    const danas = await refund(a, "tok-dana");
    await approve(a, danas.approvalId!);
    const moved = await db.pool().query(`update ${TABLE} set principal = $1 where kind = 'pending' and principal = $2`, [PRIYA, DANA]);
    expect(moved.rowCount).toBe(1);
    const priyas = await refund(b, "tok-priya");
    expect(priyas).toEqual(URL_ELICITED);
    expect(priyas.approvalId).not.toBe(danas.approvalId);
    expect(executions).toEqual([]);
    // The store itself answers nothing for the moved row's new key, and dana lost only her shortcut: her retry
    // requests a fresh approval rather than running the decided one.
    expect(await refund(a, "tok-dana")).toEqual(URL_ELICITED);
    expect(executions).toEqual([]);
  });

  it("SI-3: a declaration row copied in SQL under another principal's key covers nothing: she still gets the envelope", async () => {
    const { executions, a, b } = await twoInstances();
    await initialize(a, "tok-dana", URL_CAPABILITIES);
    const copied = await db.pool().query(
      `insert into ${TABLE} (kind, principal, entry_key, record, expires_at) select kind, $1, entry_key, record, expires_at from ${TABLE} where kind = 'capabilities' and principal = $2`,
      [PRIYA, DANA],
    );
    expect(copied.rowCount).toBe(1);
    expect(await refund(b, "tok-priya")).toEqual(ENVELOPE);
    expect(await refund(a, "tok-priya")).toEqual(ENVELOPE);
    expect(await createPgMCPElicitationStateStore({ query }).getDeclaredCapabilities(PRIYA, Date.now())).toBeUndefined();
    expect(executions).toEqual([]);
  });
});
