// SI-8 and SI-4 on the MCP v2 endpoint's URL elicitation of approvals (issue 24). A 2026-07-28 `requestState`
// travels through the client, so it is attacker-controlled: a tampered state, another principal's retry, a state
// for another input and a replay after consumption all answer byte for byte like an approval that does not exist,
// and none of them runs or burns the approval. On 2025-11-25 no state travels: the server's memory is keyed by
// principal, capability and input, so another principal never reaches the victim's approval.
import { canonicalInputHash, createKeyedMac } from "@orpc-agent/core";
import { describe, expect, it } from "vitest";
import { closeEverythingAfterEachTest } from "../../packages/mcp/test/support/cleanup.js";
import {
  approvalIdOf,
  approve,
  connectLegacyWithUrl,
  connectModernWithUrl,
  createApprovalsApp,
  serveWithElicitation,
  STATE_KEYS,
  type ApprovalsApp,
} from "../../packages/mcp/test/approvals/approvals-app.js";
import { principalKey } from "../../packages/mcp/src/catalog/principal-key.js";
import { sealState } from "../../packages/mcp/src/approvals/request-state.js";

closeEverythingAfterEachTest();

const ARGS = { orderId: "o1", amount: 5 };
const DANA_PRINCIPAL = principalKey({ id: "u_dana", kind: "user", via: { id: "agent-1" } });
type Answer = { resultType?: string; requestState?: string; inputRequests?: Record<string, { params: { url: string } }>; structuredContent?: unknown };
type ManualClient = Awaited<ReturnType<typeof connectModernWithUrl>>;

/** A 2026-07-28 call or retry in the SDK's manual mode, so the test holds the requestState. */
function call(client: ManualClient, args: Record<string, unknown>, requestState?: string, action = "accept"): Promise<Answer> {
  const params = { name: "payments_refund", arguments: args, ...(requestState !== undefined && { requestState, inputResponses: { approval: { action } } }) };
  return client.callTool(params as never, { allowInputRequired: true } as never) as Promise<Answer>;
}

/** The reference: a correctly sealed state for an approval that does not exist, retried by its own principal. */
async function unknownApprovalAnswer(client: ManualClient): Promise<Answer> {
  const approvalId = "apr_00000000-0000-4000-8000-000000000000";
  const state = await sealState(createKeyedMac(STATE_KEYS), {
    approvalId,
    principal: DANA_PRINCIPAL,
    capabilityId: "payments.refund",
    inputHash: (await canonicalInputHash(ARGS))!,
    expiresAt: Date.now() + 600_000,
    url: `https://approvals.example.test/requests/${approvalId}`,
    message: "Awaiting approval.",
    envelope: { status: "approval-required", approvalId, message: "Awaiting approval.", expiresAt: new Date(Date.now() + 600_000).toISOString() },
  });
  return call(client, ARGS, state);
}

async function pendingState(app: ApprovalsApp, client: ManualClient): Promise<{ state: string; approvalId: string }> {
  const first = await call(client, ARGS);
  expect(first.resultType).toBe("input_required");
  return { state: first.requestState!, approvalId: approvalIdOf(first.inputRequests!.approval!.params.url) };
}

function flip(text: string, at: number): string {
  const ch = text[at]!;
  return `${text.slice(0, at)}${ch === "A" ? "B" : "A"}${text.slice(at + 1)}`;
}

describe("SI-8: a 2026-07-28 requestState that is not the caller's own, for this input, answers like an unknown approval", () => {
  it("SI-8: a tampered requestState (payload or MAC) is refused byte-identically to an unknown approval and burns nothing", async () => {
    const app = createApprovalsApp();
    const { url } = await serveWithElicitation(app);
    const dana = await connectModernWithUrl(url, "tok-dana", undefined, true);
    const { state, approvalId } = await pendingState(app, dana);
    await approve(app, approvalId);
    const unknown = await unknownApprovalAnswer(dana);
    expect(unknown.structuredContent).toEqual({ status: "error", error: { code: "INTERNAL_ERROR", message: "The operation failed.", retryable: false } });
    const [keyId, body, mac] = state.split(".") as [string, string, string];
    for (const tampered of [`${keyId}.${flip(body, 20)}.${mac}`, `${keyId}.${body}.${flip(mac, 5)}`, `k2.${body}.${mac}`, `${keyId}.${body}`, "garbage"]) {
      expect(await call(dana, ARGS, tampered)).toEqual(unknown);
    }
    expect(app.executions).toEqual([]);
    // The genuine state still works: nothing above consumed the approval.
    expect((await call(dana, ARGS, state)).structuredContent).toEqual({ status: "ok", data: { refunded: 5 } });
    expect(app.executions).toHaveLength(1);
  });

  it("SI-8: another principal's retry with the victim's requestState is refused like an unknown approval; the victim's approval stays usable", async () => {
    const app = createApprovalsApp();
    const { url } = await serveWithElicitation(app);
    const dana = await connectModernWithUrl(url, "tok-dana", undefined, true);
    const priya = await connectModernWithUrl(url, "tok-priya", undefined, true);
    const { state, approvalId } = await pendingState(app, dana);
    await approve(app, approvalId);
    const stolen = await call(priya, ARGS, state);
    expect(stolen).toEqual(await unknownApprovalAnswer(dana));
    expect(app.executions).toEqual([]);
    expect((await app.runtime.approvals.get(approvalId))?.status).toBe("approved");
    expect((await call(dana, ARGS, state)).structuredContent).toEqual({ status: "ok", data: { refunded: 5 } });
  });

  it("SI-8: a requestState retried with another input is refused like an unknown approval and runs nothing", async () => {
    const app = createApprovalsApp();
    const { url } = await serveWithElicitation(app);
    const dana = await connectModernWithUrl(url, "tok-dana", undefined, true);
    const { state, approvalId } = await pendingState(app, dana);
    await approve(app, approvalId);
    expect(await call(dana, { orderId: "o1", amount: 5000 }, state)).toEqual(await unknownApprovalAnswer(dana));
    expect(app.executions).toEqual([]);
    expect((await app.runtime.approvals.get(approvalId))?.status).toBe("approved");
  });

  it("SI-8: a requestState presented with another tool answers like an unknown approval, before that tool's own input checks", async () => {
    const app = createApprovalsApp();
    const { url } = await serveWithElicitation(app);
    const dana = await connectModernWithUrl(url, "tok-dana", undefined, true);
    const { state, approvalId } = await pendingState(app, dana);
    await approve(app, approvalId);
    const params = { name: "orders_get", arguments: ARGS, requestState: state, inputResponses: { approval: { action: "accept" } } };
    const elsewhere = (await dana.callTool(params as never, { allowInputRequired: true } as never)) as Answer;
    expect(elsewhere).toEqual(await unknownApprovalAnswer(dana));
    expect((await app.runtime.approvals.get(approvalId))?.status).toBe("approved");
  });

  it("SI-8: a replay of the requestState after the approval was consumed answers like an unknown approval; the handler ran once", async () => {
    const app = createApprovalsApp();
    const { url } = await serveWithElicitation(app);
    const dana = await connectModernWithUrl(url, "tok-dana", undefined, true);
    const { state, approvalId } = await pendingState(app, dana);
    await approve(app, approvalId);
    expect((await call(dana, ARGS, state)).structuredContent).toEqual({ status: "ok", data: { refunded: 5 } });
    const replay = await call(dana, ARGS, state);
    expect(replay).toEqual(await unknownApprovalAnswer(dana));
    expect(app.executions).toHaveLength(1);
  });
});

describe("SI-8: 2025-11-25 retries carry no state; the server's memory is per principal", () => {
  async function elicitationOf(promise: Promise<unknown>): Promise<string> {
    const error = (await promise.then(
      () => undefined,
      (e: unknown) => e,
    )) as { code?: number; data?: { elicitations?: { url: string }[] } } | undefined;
    expect(error?.code).toBe(-32042);
    return error!.data!.elicitations![0]!.url;
  }

  it("SI-8: another principal's identical call gets its own approval request, never the victim's approved one", async () => {
    const app = createApprovalsApp();
    const { url } = await serveWithElicitation(app);
    const dana = await connectLegacyWithUrl(url, "tok-dana");
    const priya = await connectLegacyWithUrl(url, "tok-priya");
    const danaUrl = await elicitationOf(dana.callTool({ name: "payments_refund", arguments: ARGS }));
    await approve(app, approvalIdOf(danaUrl));
    const priyaUrl = await elicitationOf(priya.callTool({ name: "payments_refund", arguments: ARGS }));
    expect(approvalIdOf(priyaUrl)).not.toBe(approvalIdOf(danaUrl));
    expect(app.executions).toEqual([]);
    expect((await app.runtime.approvals.get(approvalIdOf(danaUrl)))?.status).toBe("approved");
  });

  it("SI-8: a retry after consumption is a fresh request (a new approval), never a second run", async () => {
    const app = createApprovalsApp();
    const { url } = await serveWithElicitation(app);
    const dana = await connectLegacyWithUrl(url, "tok-dana");
    const first = await elicitationOf(dana.callTool({ name: "payments_refund", arguments: ARGS }));
    await approve(app, approvalIdOf(first));
    expect(((await dana.callTool({ name: "payments_refund", arguments: ARGS })) as { structuredContent?: unknown }).structuredContent).toEqual({
      status: "ok",
      data: { refunded: 5 },
    });
    const again = await elicitationOf(dana.callTool({ name: "payments_refund", arguments: ARGS }));
    expect(approvalIdOf(again)).not.toBe(approvalIdOf(first));
    expect(app.executions).toHaveLength(1);
  });
});

describe("SI-4: nothing the client answers approves", () => {
  it("SI-4: an accepted elicitation with content claiming approval leaves a pending approval pending; only the app's decision runs it", async () => {
    const app = createApprovalsApp();
    const { url } = await serveWithElicitation(app);
    const dana = await connectModernWithUrl(url, "tok-dana", undefined, true);
    const first = await call(dana, ARGS);
    expect(Object.values(first.inputRequests!).every((request) => (request as { params: { mode?: string } }).params.mode === "url")).toBe(true);
    const params = { name: "payments_refund", arguments: ARGS, requestState: first.requestState, inputResponses: { approval: { action: "accept", content: { approved: true, status: "approved" } } } };
    const retried = (await dana.callTool(params as never, { allowInputRequired: true } as never)) as Answer;
    expect(retried.resultType).toBe("input_required");
    expect(app.executions).toEqual([]);
    const approvalId = approvalIdOf(first.inputRequests!.approval!.params.url);
    expect((await app.runtime.approvals.get(approvalId))?.status).toBe("pending");
  });
});
