// SI-3 on the bounds of what the v2 endpoint remembers between requests: the approvals 2025-11-25 retries resume and
// the capabilities 2025-era clients declared. Memory stays bounded, but a principal's flood must cost only its own
// entries: another principal's pending retry, approved meanwhile, still runs when retried, and its declaration of URL
// elicitation still holds. The limits are shrunk (an internal option) so a few requests reach them, where the
// defaults would take ten thousand; the endpoint, the clients' bytes and the runtime are real.
import { describe, expect, it } from "vitest";
import { createMCPHandler, type MCPHandlerOptions } from "@orpc-agent/mcp";
import { MEMORY_LIMITS, type MemoryLimits } from "../../packages/mcp/src/approvals/memory-limits.js";
import { closeEverythingAfterEachTest } from "../../packages/mcp/test/support/cleanup.js";
import { approvalUrl, approve, createApprovalsApp, STATE_KEYS, type ApprovalsApp } from "../../packages/mcp/test/approvals/approvals-app.js";
import { listenModern, nowInSeconds } from "../../packages/mcp/test/support/handler.js";
import { LEGACY_HEADERS, messagesOf, post } from "./support/mcp-v2.js";

closeEverythingAfterEachTest();

const LIMITS: MemoryLimits = { legacyPending: { perPrincipal: 2, total: 4 }, legacyCapabilities: { perPrincipal: 1, total: 3 } };
const URL_CAPABILITIES = { elicitation: { url: {} } };

/** One gateway token; the gateway names its user in a header, which the verifier reads. Every user is a principal. */
function serveGateway(app: ApprovalsApp, limits: MemoryLimits = LIMITS) {
  return listenModern((url) =>
    createMCPHandler(app.runtime, {
      resource: url,
      verifyToken: (token, request) => {
        const sub = request.headers.get("x-gateway-user");
        return token === "tok-gateway" && sub !== null ? { token, clientId: "gateway", scopes: [], expiresAt: nowInSeconds() + 3600, resource: url, extra: { sub } } : null;
      },
      createContext: ({ authInfo }) => {
        const sub = (authInfo?.extra as { sub?: unknown } | undefined)?.sub;
        return typeof sub === "string" ? { actor: { id: sub, kind: "user" }, context: {} } : null;
      },
      approvals: { url: (record) => approvalUrl(record.id) },
      urlElicitation: { keys: STATE_KEYS },
      [MEMORY_LIMITS]: limits,
    } as MCPHandlerOptions),
  );
}

const as = (user: string) => ({ ...LEGACY_HEADERS, authorization: "Bearer tok-gateway", "x-gateway-user": user });

async function initialize(url: URL, user: string, capabilities: object): Promise<void> {
  const body = { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities, clientInfo: { name: "raw", version: "1" } } };
  const response = await post(url, JSON.stringify(body), as(user));
  expect(response.status).toBe(200);
  await response.text();
}

/** A 2025-11-25 call of the gated refund: `-32042` with its approval id (URL elicitation), or the envelope's status. */
async function refund(url: URL, user: string, amount: number): Promise<{ code?: number; approvalId?: string; status?: string }> {
  const body = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "payments_refund", arguments: { orderId: "o1", amount } } };
  const [message] = (await messagesOf(await post(url, JSON.stringify(body), as(user)))) as {
    error?: { code: number; data?: { elicitations?: { elicitationId: string }[] } };
    result?: { structuredContent?: { status?: string } };
  }[];
  if (message?.error !== undefined) return { code: message.error.code, approvalId: message.error.data?.elicitations?.[0]?.elicitationId };
  return { status: message?.result?.structuredContent?.status };
}

describe("SI-3: per-principal bounds on the state the MCP endpoint remembers", () => {
  it("SI-3: one principal's flood of pending 2025-11-25 retries evicts only its own: the victim's approved retry still runs", async () => {
    const app = createApprovalsApp();
    const { url } = await serveGateway(app);
    await initialize(url, "u_alice", URL_CAPABILITIES);
    await initialize(url, "u_mallory", URL_CAPABILITIES);
    const asked = await refund(url, "u_alice", 5);
    expect(asked).toEqual({ code: -32042, approvalId: expect.any(String) });
    await approve(app, asked.approvalId!);

    // Far past the total: every call a distinct pending retry of Mallory's.
    const flood: string[] = [];
    for (let amount = 100; amount < 110; amount++) flood.push((await refund(url, "u_mallory", amount)).approvalId!);

    expect(await refund(url, "u_alice", 5)).toEqual({ status: "ok" });
    expect(app.executions).toEqual([{ orderId: "o1", amount: 5 }]);
    // The flood cost Mallory: an early call of hers is forgotten (a new approval), her latest is still remembered.
    expect((await refund(url, "u_mallory", 100)).approvalId).not.toBe(flood[0]);
    expect((await refund(url, "u_mallory", 109)).approvalId).toBe(flood[9]);
  });

  it("SI-3: at the total, the principals holding the most give way first: one pending retry outlives three principals' full shares", async () => {
    const app = createApprovalsApp();
    // Room for every principal's declaration: only the pending retries are at their total here.
    const { url } = await serveGateway(app, { ...LIMITS, legacyCapabilities: { perPrincipal: 1, total: 10 } });
    await initialize(url, "u_alice", URL_CAPABILITIES);
    const asked = await refund(url, "u_alice", 5);
    await approve(app, asked.approvalId!);
    for (const user of ["u_bob", "u_carol", "u_dave"]) {
      await initialize(url, user, URL_CAPABILITIES);
      for (let amount = 100; amount < 102; amount++) expect((await refund(url, user, amount)).code).toBe(-32042);
    }
    expect(await refund(url, "u_alice", 5)).toEqual({ status: "ok" });
    expect(app.executions).toEqual([{ orderId: "o1", amount: 5 }]);
  });

  it("SI-3: a principal re-declaring its capabilities again and again keeps one entry: another's declaration of URL elicitation holds", async () => {
    const app = createApprovalsApp();
    const { url } = await serveGateway(app);
    await initialize(url, "u_alice", URL_CAPABILITIES);
    for (let i = 0; i < 10; i++) await initialize(url, "u_mallory", i % 2 === 0 ? URL_CAPABILITIES : {});
    expect(await refund(url, "u_alice", 5)).toEqual({ code: -32042, approvalId: expect.any(String) });
    // Mallory's latest declaration (none) stands for her.
    expect(await refund(url, "u_mallory", 5)).toEqual({ status: "approval-required" });
  });
});
