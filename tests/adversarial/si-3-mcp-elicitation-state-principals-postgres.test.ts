// SI-3 review of the 2025-era elicitation state shared through PostgreSQL (issue 48): two instances (two runtimes,
// each its own PostgreSQL coordinator, and two `createMCPHandler`s on loopback) over one schema. Who is "the same
// principal" is the actor's id and kind plus the OAuth client acting for it, never the bearer text: the same user
// through another client, a token re-assigned to another user, and ids that differ only by JSON separators or Unicode
// normalization must each start from nothing. Rows edited in SQL (value swapped to another approval, expiry pushed
// forward) and a retry with other arguments must never run what the retried call did not ask for.
import { agentMeta, createAgentRuntime, createCapabilityRegistry, defineGovernance, type AgentRuntime } from "@orpc-agent/core";
import { createMCPHandler, type MCPHandlerOptions } from "@orpc-agent/mcp";
import { APPROVALS_DDL, createPgApprovalCoordinator, createPgMCPElicitationStateStore, INVOCATIONS_DDL } from "@orpc-agent/postgres";
import { beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { principalKey } from "../../packages/mcp/src/catalog/principal-key.js";
import { APPROVER, approvalUrl, STATE_KEYS } from "../../packages/mcp/test/approvals/approvals-app.js";
import { closeEverythingAfterEachTest } from "../../packages/mcp/test/support/cleanup.js";
import { listenModern, nowInSeconds } from "../../packages/mcp/test/support/handler.js";
import { ap } from "../../packages/mcp/test/support/orpc.js";
import { usePgSchema } from "../../packages/postgres/test/support/real-server.js";
import { LEGACY_HEADERS, messagesOf, post } from "./support/mcp-v2.js";

closeEverythingAfterEachTest();

const TABLE = "orpc_agent_mcp_elicitation_state";
const db = usePgSchema("adv_si3_mcp_elicit_principals", [APPROVALS_DDL, INVOCATIONS_DDL], { max: 8 });
const { query } = db;

/** Bearer text → who it is: the user and the OAuth client acting for it. Tests re-assign tokens. */
type Who = { id: string; client: string };
let tokens: Record<string, Who> = {};

beforeEach(async () => {
  await db.pool().query(`truncate table ${TABLE}`);
  tokens = { "tok-dana": { id: "u_dana", client: "agent-1" }, "tok-priya": { id: "u_priya", client: "agent-1" } };
});

const URL_CAPABILITIES = { elicitation: { url: {} } };
const keyOf = (who: Who) => principalKey({ id: who.id, kind: "user", via: { id: who.client } });

type Instance = { url: URL; runtime: AgentRuntime };
type Asked = { code?: number; status?: string; approvalId?: string; refunded?: number; errorCode?: string };

async function startInstance(executions: unknown[], limits?: Parameters<typeof createPgMCPElicitationStateStore>[0]["limits"]): Promise<Instance> {
  const registry = createCapabilityRegistry({
    payments: {
      refund: ap
        // A default the calls never send: the approval binds the parsed input, the retry is matched on what was sent.
        .input(z.object({ orderId: z.string(), amount: z.number(), note: z.string().default("none") }))
        .meta(agentMeta({ description: "Refund a payment.", expose: { mcp: true }, sideEffect: "write", risk: "high", approval: { required: true } }))
        .handler(({ input }) => {
          executions.push({ orderId: input.orderId, amount: input.amount });
          return { refunded: input.amount };
        }),
    },
  });
  const runtime = createAgentRuntime({ governance: defineGovernance({ registry }), audit: () => {}, approvals: { coordinator: createPgApprovalCoordinator({ query }), seal: false } });
  const store = createPgMCPElicitationStateStore({ query, ...(limits !== undefined && { limits }) });
  const { url } = await listenModern((url) =>
    createMCPHandler(runtime, {
      resource: url,
      verifyToken: (token: string) => {
        const who = tokens[token];
        return who === undefined ? null : { token, clientId: who.client, scopes: [], expiresAt: nowInSeconds() + 3600, resource: url };
      },
      createContext: ({ authInfo }: { authInfo?: { token: string } }) => {
        const who = authInfo === undefined ? undefined : tokens[authInfo.token];
        return who === undefined ? null : { actor: { id: who.id, kind: "user" }, context: {} };
      },
      approvals: { url: (record: { id: string }) => approvalUrl(record.id) },
      urlElicitation: { keys: STATE_KEYS, store },
    } as unknown as MCPHandlerOptions),
  );
  return { url, runtime };
}

async function twoInstances(limits?: Parameters<typeof startInstance>[1]) {
  const executions: { orderId: string; amount: number }[] = [];
  return { executions, a: await startInstance(executions, limits), b: await startInstance(executions, limits) };
}

async function initialize(instance: Instance, token: string, capabilities: object = URL_CAPABILITIES): Promise<void> {
  const body = { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities, clientInfo: { name: "raw", version: "1" } } };
  const response = await post(instance.url, JSON.stringify(body), LEGACY_HEADERS, token);
  await response.text();
  expect(response.status).toBe(200);
}

async function refund(instance: Instance, token: string, amount = 5): Promise<Asked> {
  const body = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "payments_refund", arguments: { orderId: "o1", amount } } };
  const [message] = await messagesOf(await post(instance.url, JSON.stringify(body), LEGACY_HEADERS, token));
  const m = message as {
    error?: { code: number; data?: { elicitations?: { elicitationId: string }[] } };
    result?: { structuredContent?: { status?: string; approvalId?: string; data?: { refunded?: number }; error?: { code?: string } } };
  };
  if (m.error !== undefined) return { code: m.error.code, approvalId: m.error.data?.elicitations?.[0]?.elicitationId };
  const content = m.result?.structuredContent;
  return { status: content?.status, approvalId: content?.approvalId, refunded: content?.data?.refunded, errorCode: content?.error?.code };
}

const approve = (instance: Instance, id: string) => instance.runtime.approvals.decide(id, { status: "approved", approver: APPROVER });
const URL_ELICITED = { code: -32042, approvalId: expect.stringMatching(/^apr_/) };
const ENVELOPE = { status: "approval-required", approvalId: expect.stringMatching(/^apr_/), refunded: undefined, errorCode: undefined };
const pendingRows = async (principal: string) =>
  (await db.pool().query(`select entry_key, record::text as record from ${TABLE} where kind = 'pending' and principal = $1`, [principal])).rows;

describe("SI-3: who shares 2025-era elicitation state across two instances (principal, never bearer text)", () => {
  it("SI-3: the same user through another OAuth client finds neither the declaration nor the pending approval of the first client", async () => {
    const { executions, a, b } = await twoInstances();
    tokens["tok-dana-other-client"] = { id: "u_dana", client: "agent-2" };
    await initialize(a, "tok-dana");
    const first = await refund(a, "tok-dana");
    expect(first).toEqual(URL_ELICITED);
    await approve(a, first.approvalId!);
    // Another client acting for dana: no URL capability declared, no shortcut to the first client's approval.
    const other = await refund(b, "tok-dana-other-client");
    expect(other).toEqual(ENVELOPE);
    expect(other.approvalId).not.toBe(first.approvalId);
    expect(executions).toEqual([]);
    await initialize(b, "tok-dana-other-client");
    const elicited = await refund(a, "tok-dana-other-client");
    expect(elicited).toEqual(URL_ELICITED);
    expect(elicited.approvalId).not.toBe(first.approvalId);
    expect(executions).toEqual([]);
    // The first client's retry still resumes its own approval, once.
    expect(await refund(b, "tok-dana")).toMatchObject({ status: "ok", refunded: 5 });
    expect(executions).toHaveLength(1);
  });

  it("SI-3: one bearer text re-assigned to another user leaves the first user's state behind", async () => {
    const { executions, a, b } = await twoInstances();
    tokens["tok-gateway"] = { id: "u_dana", client: "gw" };
    await initialize(a, "tok-gateway");
    const danas = await refund(a, "tok-gateway");
    expect(danas).toEqual(URL_ELICITED);
    await approve(a, danas.approvalId!);
    // The gateway now sends the same text for priya.
    tokens["tok-gateway"] = { id: "u_priya", client: "gw" };
    const priyas = await refund(b, "tok-gateway");
    expect(priyas).toEqual(ENVELOPE);
    expect(priyas.approvalId).not.toBe(danas.approvalId);
    expect(executions).toEqual([]);
    tokens["tok-gateway"] = { id: "u_dana", client: "gw" };
    expect(await refund(b, "tok-gateway")).toMatchObject({ status: "ok", refunded: 5 });
    expect(executions).toHaveLength(1);
  });

  it("SI-3: ids that differ only by JSON separators, quotes, length or Unicode normalization are distinct principals in the table", async () => {
    const { executions, a, b } = await twoInstances();
    const odd: Who[] = [
      { id: 'u","user","agent-1"]', client: "x" },
      { id: "u", client: 'agent-1"]' },
      { id: "caf\u00e9", client: "c" },
      { id: "cafe\u0301", client: "c" },
      { id: "\ufffd", client: "c" },
      { id: "x".repeat(2000), client: "c" },
      { id: "x".repeat(1999), client: "xc" },
    ];
    odd.forEach((who, i) => (tokens[`tok-odd-${i}`] = who));
    // The first declares and gets an approval decided; every other one must start from nothing.
    await initialize(a, "tok-odd-0");
    const first = await refund(a, "tok-odd-0");
    expect(first).toEqual(URL_ELICITED);
    await approve(a, first.approvalId!);
    for (let i = 1; i < odd.length; i++) {
      const answer = await refund(i % 2 === 0 ? a : b, `tok-odd-${i}`);
      expect(answer, `tok-odd-${i}`).toEqual(ENVELOPE);
      expect(answer.approvalId).not.toBe(first.approvalId);
    }
    // Each declares, and each gets its own approval, kept under its own key.
    const approvals = new Set<string>([first.approvalId!]);
    for (let i = 1; i < odd.length; i++) {
      await initialize(i % 2 === 0 ? b : a, `tok-odd-${i}`);
      const answer = await refund(i % 2 === 0 ? a : b, `tok-odd-${i}`);
      expect(answer, `tok-odd-${i}`).toEqual(URL_ELICITED);
      approvals.add(answer.approvalId!);
      expect(await pendingRows(keyOf(odd[i]!))).toHaveLength(1);
    }
    expect(approvals.size).toBe(odd.length);
    expect(executions).toEqual([]);
    expect(await refund(b, "tok-odd-0")).toMatchObject({ status: "ok", refunded: 5 });
    expect(executions).toHaveLength(1);
  });
});

describe("SI-3: edited rows and other arguments never run what the retried call did not ask for", () => {
  it("SI-3: a pending row whose value is swapped to another principal's approved approval runs nothing", async () => {
    const { executions, a, b } = await twoInstances();
    await initialize(a, "tok-dana");
    await initialize(a, "tok-priya");
    const danas = await refund(a, "tok-dana");
    const priyas = await refund(a, "tok-priya", 700);
    await approve(a, priyas.approvalId!);
    const swapped = await db.pool().query(
      `update ${TABLE} set record = jsonb_set(record, '{value,approvalId}', to_jsonb($1::text)) where kind = 'pending' and principal = $2`,
      [priyas.approvalId, keyOf(tokens["tok-dana"]!)],
    );
    expect(swapped.rowCount).toBe(1);
    const answer = await refund(b, "tok-dana");
    expect(answer.refunded).toBeUndefined();
    expect(executions).toEqual([]);
    // priya's approval is still hers, whole.
    expect(await refund(a, "tok-priya", 700)).toMatchObject({ status: "ok", refunded: 700 });
    expect(executions).toEqual([{ orderId: "o1", amount: 700 }]);
    expect(danas.approvalId).not.toBe(priyas.approvalId);
  });

  it("SI-3: a pending row whose value is swapped to the same principal's approval of other arguments does not run those arguments", async () => {
    const { executions, a, b } = await twoInstances();
    await initialize(a, "tok-dana");
    const small = await refund(a, "tok-dana", 5);
    const large = await refund(a, "tok-dana", 900);
    expect(small).toEqual(URL_ELICITED);
    expect(large).toEqual(URL_ELICITED);
    await approve(a, large.approvalId!);
    // The row of the 5 refund now points at the approved 900 refund.
    const key = keyOf(tokens["tok-dana"]!);
    const rows = await pendingRows(key);
    const smallRow = rows.find((row) => JSON.parse(row.record).value.approvalId === small.approvalId);
    expect(smallRow).toBeDefined();
    await db.pool().query(
      `update ${TABLE} set record = jsonb_set(record, '{value,approvalId}', to_jsonb($1::text)) where kind = 'pending' and principal = $2 and entry_key = $3`,
      [large.approvalId, key, smallRow!.entry_key],
    );
    const answer = await refund(b, "tok-dana", 5);
    // Retrying the 5 refund must never execute the 900 one.
    expect(executions).toEqual([]);
    expect(answer.refunded).toBeUndefined();
    // The 900 refund, retried as itself, still runs once.
    expect(await refund(a, "tok-dana", 900)).toMatchObject({ status: "ok", refunded: 900 });
    expect(executions).toEqual([{ orderId: "o1", amount: 900 }]);
  });

  it("SI-3: a pending row kept past its approval's expiry (expires_at pushed forward) resumes nothing: the approval answers expired", async () => {
    const { executions, a, b } = await twoInstances();
    await initialize(a, "tok-dana");
    const asked = await refund(a, "tok-dana");
    await approve(a, asked.approvalId!);
    // The approval's own expiry passes; the remembered retry is kept a century longer.
    await db.pool().query(`update orpc_agent_approvals set expires_at = now() - interval '1 minute' where id = $1`, [asked.approvalId]);
    const century = String(Date.now() + 100 * 365 * 86_400_000);
    await db.pool().query(`update ${TABLE} set expires_at = $1::bigint, record = jsonb_set(record, '{value,expiresAt}', to_jsonb($1::bigint)) where kind = 'pending'`, [century]);
    const answer = await refund(b, "tok-dana");
    expect(answer.refunded).toBeUndefined();
    expect(executions).toEqual([]);
  });

  it("SI-3: a retry with other arguments reaching the other instance asks for a new approval and never runs the approved arguments", async () => {
    const { executions, a, b } = await twoInstances();
    await initialize(a, "tok-dana");
    const first = await refund(a, "tok-dana", 5);
    await approve(a, first.approvalId!);
    const changed = await refund(b, "tok-dana", 6);
    expect(changed).toEqual(URL_ELICITED);
    expect(changed.approvalId).not.toBe(first.approvalId);
    expect(executions).toEqual([]);
    // The changed call stays pending on either instance; the approved one runs as approved.
    expect(await refund(a, "tok-dana", 6)).toEqual({ code: -32042, approvalId: changed.approvalId });
    expect(await refund(a, "tok-dana", 5)).toMatchObject({ status: "ok", refunded: 5 });
    expect(executions).toEqual([{ orderId: "o1", amount: 5 }]);
  });

  it("SI-3: one principal flooding past its pending bound, from both instances at once, costs another principal nothing", async () => {
    const { executions, a, b } = await twoInstances({ pending: { perPrincipal: 3, total: 5 }, declaredCapabilities: { perPrincipal: 1, total: 10 } });
    await initialize(a, "tok-dana");
    await initialize(b, "tok-priya");
    const priyas = await refund(a, "tok-priya");
    expect(priyas).toEqual(URL_ELICITED);
    // dana makes 24 different calls, half on each instance, all at once.
    const flood = await Promise.all(Array.from({ length: 24 }, (_, i) => refund(i % 2 === 0 ? a : b, "tok-dana", 100 + i)));
    expect(flood.every((answer) => answer.code === -32042)).toBe(true);
    // Racing writes may overshoot dana's own bound; the next write restores it. priya's entry is never what gives way.
    expect(await pendingRows(keyOf(tokens["tok-priya"]!))).toHaveLength(1);
    expect(await refund(a, "tok-dana", 999)).toMatchObject({ code: -32042 });
    expect(await pendingRows(keyOf(tokens["tok-dana"]!))).toHaveLength(3);
    expect(await pendingRows(keyOf(tokens["tok-priya"]!))).toHaveLength(1);
    await approve(b, priyas.approvalId!);
    expect(await refund(b, "tok-priya")).toMatchObject({ status: "ok", refunded: 5 });
    expect(executions).toEqual([{ orderId: "o1", amount: 5 }]);
  });

  it("SI-3: a declaration padded to hundreds of kilobytes (or holding a NUL) is kept at a constant size: a principal cannot fill the shared table", async () => {
    const { executions, a, b } = await twoInstances();
    const padded = { ...URL_CAPABILITIES, experimental: { padding: "x".repeat(300_000), nul: "\u0000" } };
    await initialize(a, "tok-dana", padded);
    const [row] = (await db.pool().query(`select octet_length(record::text) as size from ${TABLE} where kind = 'capabilities' and principal = $1`, [keyOf(tokens["tok-dana"]!)])).rows;
    expect(Number(row?.size)).toBeLessThan(1_000);
    // What matters is kept: the URL capability is found on the other instance.
    expect(await refund(b, "tok-dana")).toEqual(URL_ELICITED);
    expect(executions).toEqual([]);
  });
});
