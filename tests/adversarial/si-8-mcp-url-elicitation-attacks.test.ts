// SI-8 attacks on the MCP v2 endpoint's URL elicitation of approvals, from outside, over loopback HTTP with the real
// SDK clients and raw bodies. What an attacker varies: the tool name a requestState is presented with (a hidden
// capability's raw registry id, an unknown one), the acting agent holding another agent's approval id, and strings
// that look like a valid requestState. Every one must answer exactly as its unknown counterpart, and nothing may
// reach the client that was not meant for it (no arguments, no token in the link, the message or the state).
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  agentMeta,
  allow,
  createAgentRuntime,
  createCapabilityRegistry,
  createInMemoryApprovalCoordinator,
  defineGovernance,
  definePolicy,
  hide,
} from "@orpc-agent/core";
import { createMCPHandler } from "@orpc-agent/mcp";
import { closeEverythingAfterEachTest } from "../../packages/mcp/test/support/cleanup.js";
import { ap } from "../../packages/mcp/test/support/orpc.js";
import { listenModern, nowInSeconds } from "../../packages/mcp/test/support/handler.js";
import {
  approvalIdOf,
  approvalUrl,
  approve,
  connectLegacyWithUrl,
  connectModernWithUrl,
  createApprovalsApp,
  elicitationOptions,
  serveWithElicitation,
} from "../../packages/mcp/test/approvals/approvals-app.js";
import { callMessage, ERAS, headersFor, messagesOf, MODERN_META, modernHeaders, post, type Era } from "./support/mcp-v2.js";

closeEverythingAfterEachTest();

const URL_META = { ...MODERN_META, "io.modelcontextprotocol/clientCapabilities": { elicitation: { url: {} } } };
const ARGS = { orderId: "o1", amount: 5 };

/** `payments.refund` needs approval; `vault.open` needs approval too and is hidden from everyone but u_admin. */
function hiddenApp() {
  const runs: string[] = [];
  const gated = (description: string) =>
    agentMeta({ description, expose: { mcp: true }, sideEffect: "write", risk: "high", approval: { required: true } });
  const registry = createCapabilityRegistry({
    payments: { refund: ap.input(z.object({ orderId: z.string(), amount: z.number() })).meta(gated("Refund a payment.")).handler(() => (runs.push("payments.refund"), { ok: true })) },
    vault: { open: ap.input(z.object({ orderId: z.string(), amount: z.number() })).meta(gated("Open the vault.")).handler(() => (runs.push("vault.open"), { ok: true })) },
  });
  const policies = [
    definePolicy("vault-admins", (req) => (req.actor.id === "u_admin" ? allow() : hide()), { phases: ["discovery", "invocation"], scope: { capabilities: { ids: ["vault.open"] } } }),
  ];
  const runtime = createAgentRuntime({
    governance: defineGovernance({ registry, policies }),
    approvals: { coordinator: createInMemoryApprovalCoordinator() },
    audit: () => {},
  });
  return { runtime, runs };
}

/** One raw 2026-07-28 tools/call from a client declaring URL elicitation, optionally carrying a requestState. */
async function modernCall(url: URL, name: string, extra: Record<string, unknown> = {}, token = "tok-dana") {
  const body = { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name, arguments: ARGS, _meta: URL_META, ...extra } };
  const response = await post(url, JSON.stringify(body), modernHeaders(name), token);
  return { status: response.status, messages: await messagesOf(response) };
}

describe("SI-8: a requestState presented with a raw registry id answers as with an unknown name", () => {
  it("SI-8: with a requestState, a hidden capability's raw id, a visible one's and an unknown dotted id answer byte-identically", async () => {
    const app = hiddenApp();
    const { url } = await listenModern((u) => createMCPHandler(app.runtime, elicitationOptions(u)));
    for (const requestState of ["garbage", "k1.e30.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"]) {
      const unknown = await modernCall(url, "no.such_tool", { requestState });
      expect(unknown.status).toBe(200);
      expect(await modernCall(url, "vault.open", { requestState })).toEqual(unknown);
      expect(await modernCall(url, "payments.refund", { requestState })).toEqual(unknown);
      expect(await modernCall(url, "no_such_tool", { requestState })).toEqual(unknown);
    }
    expect(app.runs).toEqual([]);
  });

  it("SI-8: a caller's own valid requestState presented with the capability's raw id answers like an unknown name and burns nothing", async () => {
    const app = hiddenApp();
    const { url } = await listenModern((u) => createMCPHandler(app.runtime, elicitationOptions(u)));
    const first = (await modernCall(url, "payments_refund")).messages[0] as { result: { requestState: string; inputRequests: { approval: { params: { url: string } } } } };
    const { requestState } = first.result;
    const approvalId = approvalIdOf(first.result.inputRequests.approval.params.url);
    await app.runtime.approvals.decide(approvalId, { status: "approved", approver: { id: "u_manager", kind: "user" } });
    expect(await modernCall(url, "payments.refund", { requestState })).toEqual(await modernCall(url, "no.such_tool", { requestState }));
    expect(app.runs).toEqual([]);
    expect((await app.runtime.approvals.get(approvalId))?.status).toBe("approved");
  });

  it.each(ERAS)("SI-8: a hidden approval-gated tool called by a URL-capable client (%s) answers like an unknown tool and elicits nothing", async (era) => {
    const app = hiddenApp();
    const { url } = await listenModern((u) => createMCPHandler(app.runtime, elicitationOptions(u)));
    const client = era === "modern" ? await connectModernWithUrl(url, "tok-dana", undefined, true) : await connectLegacyWithUrl(url, "tok-dana");
    const call = (name: string) =>
      era === "modern"
        ? (client as Awaited<ReturnType<typeof connectModernWithUrl>>).callTool({ name, arguments: ARGS } as never, { allowInputRequired: true } as never)
        : (client as Awaited<ReturnType<typeof connectLegacyWithUrl>>).callTool({ name, arguments: ARGS });
    const hidden = await call("vault_open");
    expect(hidden).toEqual(await call("no_such_tool"));
    expect(hidden).toEqual(await call("vault.open"));
    expect((hidden as { structuredContent?: { error?: { code?: string } } }).structuredContent?.error?.code).toBe("CAPABILITY_NOT_FOUND");
    expect(app.runs).toEqual([]);
  });
});

describe("SI-8: a look-alike requestState answers like an unknown approval and burns nothing", () => {
  it("SI-8: whitespace, case, Unicode dots, a NUL, an overlong tail and an empty string around a genuine state are all unknown", async () => {
    const app = createApprovalsApp();
    const { url } = await serveWithElicitation(app);
    const first = (await modernCall(url, "payments_refund")).messages[0] as { result: { requestState: string; inputRequests: { approval: { params: { url: string } } } } };
    const state = first.result.requestState;
    const approvalId = approvalIdOf(first.result.inputRequests.approval.params.url);
    await approve(app, approvalId);
    const unknown = await modernCall(url, "payments_refund", { requestState: "not-a-state" });
    expect((unknown.messages[0] as { result: { structuredContent: unknown } }).result.structuredContent).toEqual({
      status: "error",
      error: { code: "INTERNAL_ERROR", message: "The operation failed.", retryable: false },
    });
    const [keyId, body, mac] = state.split(".") as [string, string, string];
    const lookalikes = [
      ` ${state}`,
      `${state}\n`,
      `${state}\u0000`,
      `${keyId.toUpperCase()}.${body}.${mac}`,
      `${keyId}.${body}.${mac.toLowerCase() === mac ? mac.toUpperCase() : mac.toLowerCase()}`,
      [keyId, body, mac].join("\u2024"),
      [keyId, body, mac].join("\uFF0E"),
      `${keyId}.${body}.${mac}.${mac}`,
      `${keyId}.${body}=.${mac}`,
      `${keyId}.${body}.${mac}${"A".repeat(20_000)}`,
      `${keyId}.${body.normalize("NFKC")}\u200B.${mac}`,
      "",
    ];
    for (const requestState of lookalikes) expect(await modernCall(url, "payments_refund", { requestState })).toEqual(unknown);
    expect(app.executions).toEqual([]);
    expect((await app.runtime.approvals.get(approvalId))?.status).toBe("approved");
  });
});

// The resume tool's scope check reads the approval to learn which capability it would run. Identity there is the
// actor and the OAuth client acting for it (SI-3): another agent of the same user is another principal, whose
// resume the runtime refuses, so the check must not answer it with a challenge naming the approval's tool.
const AGENT_TOKENS: Record<string, { clientId: string; scopes: string[] }> = {
  "tok-dana-agent1-scoped": { clientId: "agent-1", scopes: ["mcp", "reports:export"] },
  "tok-dana-agent2": { clientId: "agent-2", scopes: ["mcp"] },
  "tok-dana-agent2-scoped": { clientId: "agent-2", scopes: ["mcp", "reports:export"] },
};

function scopedApprovalApp() {
  const runs: string[] = [];
  const registry = createCapabilityRegistry({
    reports: {
      export: ap
        // `adapters.mcp.scopes` is read by the MCP adapter; AgentMeta does not type it yet.
        .meta(agentMeta({ description: "Export the reports.", expose: { mcp: true }, sideEffect: "write", risk: "high", approval: { required: true }, adapters: { mcp: { scopes: ["reports:export"] } } } as never))
        .handler(() => (runs.push("reports.export"), { exported: true })),
    },
  });
  const runtime = createAgentRuntime({ governance: defineGovernance({ registry }), approvals: { coordinator: createInMemoryApprovalCoordinator() }, audit: () => {} });
  return { runtime, runs };
}

describe.each(ERAS)("SI-8: the resume tool's scope check and another acting agent's approval id (%s)", (era: Era) => {
  it("SI-8: another OAuth client of the same user, lacking the scope, gets the unknown-id answer for the approval, not a challenge naming its tool", async () => {
    const app = scopedApprovalApp();
    const { url } = await listenModern((u) =>
      createMCPHandler(app.runtime, {
        resource: u,
        verifyToken: (token) => {
          const known = AGENT_TOKENS[token];
          return known === undefined ? null : { token, clientId: known.clientId, scopes: known.scopes, expiresAt: nowInSeconds() + 3600, resource: u };
        },
        createContext: ({ authInfo }) => (authInfo !== undefined && authInfo.token in AGENT_TOKENS ? { actor: { id: "u_dana", kind: "user" }, context: {} } : null),
        approvals: { resumeTool: true },
      }),
    );
    const asked = (await messagesOf(await post(url, JSON.stringify(callMessage("reports_export", era)), headersFor("reports_export", era), "tok-dana-agent1-scoped"))) as {
      result?: { structuredContent?: { approvalId?: string } };
    }[];
    const approvalId = asked[0]!.result!.structuredContent!.approvalId!;
    await app.runtime.approvals.decide(approvalId, { status: "approved", approver: { id: "u_manager", kind: "user" } });
    const resume = async (id: string, token: string) => {
      const message = callMessage("approvals_resume", era, 9);
      const body = { ...message, params: { ...message.params, arguments: { approvalId: id } } };
      const response = await post(url, JSON.stringify(body), headersFor("approvals_resume", era), token);
      return { status: response.status, challenge: response.headers.get("www-authenticate"), text: await response.text() };
    };
    const unknown = await resume("apr_00000000-0000-4000-8000-000000000000", "tok-dana-agent2");
    expect(unknown.status).toBe(200);
    expect(await resume(approvalId, "tok-dana-agent2")).toEqual(unknown);
    // With the scope, the runtime's own guard answers the same: the scope check was the only difference.
    expect(await resume(approvalId, "tok-dana-agent2-scoped")).toEqual(await resume("apr_00000000-0000-4000-8000-000000000000", "tok-dana-agent2-scoped"));
    expect(app.runs).toEqual([]);
    expect((await app.runtime.approvals.get(approvalId))?.status).toBe("approved");
  });
});

describe("SI-8: what the client is shown carries only the app's link, never the arguments or the token", () => {
  const SENTINEL = "SENTINEL-ORDER-7f3a";
  const TOKEN = "tok-dana";

  it("SI-8: the 2026-07-28 elicitUrl is exactly approvals.url(record), and neither it, its message nor the requestState carry the arguments or the token", async () => {
    const app = createApprovalsApp();
    const { url } = await serveWithElicitation(app);
    const body = { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "payments_refund", arguments: { orderId: SENTINEL, amount: 5 }, _meta: URL_META } };
    const response = await post(url, JSON.stringify(body), modernHeaders("payments_refund"), TOKEN);
    const [message] = (await messagesOf(response)) as { result: { requestState: string; inputRequests: Record<string, { params: { url: string; message: string } }> } }[];
    const { params } = message!.result.inputRequests.approval!;
    const [record] = (await app.runtime.approvals.list!({ status: "pending" })) as { id: string }[];
    expect(params.url).toBe(approvalUrl(record!.id));
    const statePayload = Buffer.from(message!.result.requestState.split(".")[1]!, "base64url").toString("utf8");
    for (const shown of [params.url, params.message, message!.result.requestState, statePayload, JSON.stringify(message)]) {
      expect(shown).not.toContain(SENTINEL);
      expect(shown).not.toContain(TOKEN);
    }
  });

  it("SI-8: the 2025-11-25 -32042 names exactly approvals.url(record) and the approval id, and carries neither the arguments nor the token", async () => {
    const app = createApprovalsApp();
    const { url } = await serveWithElicitation(app);
    const client = await connectLegacyWithUrl(url, TOKEN);
    const error = (await client.callTool({ name: "payments_refund", arguments: { orderId: SENTINEL, amount: 5 } }).then(
      () => undefined,
      (e: unknown) => e,
    )) as { code?: number; message?: string; data?: { elicitations?: { url: string; elicitationId: string; message: string }[] } };
    expect(error.code).toBe(-32042);
    const [elicitation] = error.data!.elicitations!;
    expect(elicitation!.url).toBe(approvalUrl(elicitation!.elicitationId));
    expect(JSON.stringify(error.data)).not.toContain(SENTINEL);
    expect(`${error.message} ${JSON.stringify(error.data)}`).not.toContain(TOKEN);
  });
});
