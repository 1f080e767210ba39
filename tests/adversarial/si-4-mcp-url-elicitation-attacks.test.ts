// SI-4 attacks on the MCP v2 endpoint's URL elicitation of approvals: nothing a client sends decides an approval,
// and no second principal can act on the first one's. Tried from outside, with raw 2026-07-28 and 2025-11-25 bodies
// and the SDK clients: elicitation answers with actions outside accept/decline/cancel, extra or wrapped content and
// confusable keys; `notifications/elicitation/complete` sent by clients (for their own, another principal's and
// never-issued ids); and, on stdio, decisions the app reports twice, late or for ids nobody waits on.
import { describe, expect, it } from "vitest";
import { closeEverythingAfterEachTest } from "../../packages/mcp/test/support/cleanup.js";
import {
  approvalIdOf,
  approve,
  connectLegacyStdioWithUrl,
  connectLegacyWithUrl,
  createApprovalsApp,
  serveWithElicitation,
} from "../../packages/mcp/test/approvals/approvals-app.js";
import { LEGACY_HEADERS, messagesOf, MODERN_META, post } from "./support/mcp-v2.js";

closeEverythingAfterEachTest();

const ARGS = { orderId: "o1", amount: 5 };
const URL_META = { ...MODERN_META, "io.modelcontextprotocol/clientCapabilities": { elicitation: { url: {} } } };
const MODERN_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28" };
type CallAnswer = { result?: { resultType?: string; requestState?: string; structuredContent?: unknown; inputRequests?: Record<string, { params: { url: string } }> }; error?: { code: number } };

async function modernCall(url: URL, token: string, extra: Record<string, unknown> = {}): Promise<{ status: number; answer: CallAnswer | undefined }> {
  const body = { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "payments_refund", arguments: ARGS, _meta: URL_META, ...extra } };
  const response = await post(url, JSON.stringify(body), { ...MODERN_HEADERS, "mcp-method": "tools/call", "mcp-name": "payments_refund" }, token);
  return { status: response.status, answer: (await messagesOf(response))[0] as CallAnswer | undefined };
}

async function pending(url: URL): Promise<{ state: string; approvalId: string }> {
  const { answer } = await modernCall(url, "tok-dana");
  expect(answer?.result?.resultType).toBe("input_required");
  return { state: answer!.result!.requestState!, approvalId: approvalIdOf(answer!.result!.inputRequests!.approval!.params.url) };
}

describe("SI-4: no elicitation answer decides, whatever it claims", () => {
  const HOSTILE_RESPONSES: [string, unknown][] = [
    ["an action outside the three", { approval: { action: "approve" } }],
    ["an upper-case accept", { approval: { action: "ACCEPT" } }],
    ["a padded accept", { approval: { action: " accept" } }],
    ["accept with content claiming approval", { approval: { action: "accept", content: { approved: true, status: "approved", approver: "u_manager" } } }],
    ["accept with non-object content", { approval: { action: "accept", content: "approved" } }],
    ["a wrapped result", { approval: { method: "elicitation/create", result: { action: "accept" } } }],
    ["a bare string", { approval: "accept" }],
    ["a decision-shaped entry", { approval: { status: "approved", approver: { id: "u_manager", kind: "user" } } }],
    ["a confusable key", { "approval\u200B": { action: "accept" }, Approval: { action: "accept" } }],
    ["inputResponses that is not an object", "accept"],
    ["inputResponses that is an array", [{ action: "accept" }]],
  ];

  it.each(HOSTILE_RESPONSES)("SI-4: %s leaves the pending approval pending and asks again; nothing runs", async (_label, inputResponses) => {
    const app = createApprovalsApp();
    const { url } = await serveWithElicitation(app);
    const { state, approvalId } = await pending(url);
    const { answer } = await modernCall(url, "tok-dana", { requestState: state, inputResponses });
    // Either the SDK refuses the malformed params, or the server asks again: never a run, never a decision.
    if (answer?.error === undefined) expect(answer?.result?.resultType).toBe("input_required");
    expect(app.executions).toEqual([]);
    expect((await app.runtime.approvals.get(approvalId))?.status).toBe("pending");
    expect(app.events.filter((event) => event.type === "capability.approved" || event.type === "capability.rejected")).toEqual([]);
  });

  it("SI-4: a decline under a confusable key is not the user's answer: the pending approval is asked again, not dropped to the envelope", async () => {
    const app = createApprovalsApp();
    const { url } = await serveWithElicitation(app);
    const { state } = await pending(url);
    for (const key of ["Approval", "approval ", "approval\u200B", "\uFF41pproval"]) {
      const { answer } = await modernCall(url, "tok-dana", { requestState: state, inputResponses: { [key]: { action: "decline" } } });
      expect(answer?.result?.resultType).toBe("input_required");
    }
    const { answer } = await modernCall(url, "tok-dana", { requestState: state, inputResponses: { approval: { action: "decline" } } });
    expect((answer?.result?.structuredContent as { status?: string }).status).toBe("approval-required");
  });

  it("SI-4: another principal's retry with the victim's pending requestState and every answer is refused like an unknown approval; the victim is still asked", async () => {
    const app = createApprovalsApp();
    const { url } = await serveWithElicitation(app);
    const { state, approvalId } = await pending(url);
    const unknown = await modernCall(url, "tok-priya", { requestState: "not-a-state" });
    for (const action of ["accept", "decline", "cancel"]) {
      expect(await modernCall(url, "tok-priya", { requestState: state, inputResponses: { approval: { action } } })).toEqual(unknown);
    }
    expect((await app.runtime.approvals.get(approvalId))?.status).toBe("pending");
    expect((await modernCall(url, "tok-dana", { requestState: state, inputResponses: { approval: { action: "accept" } } })).answer?.result?.resultType).toBe("input_required");
    expect(app.executions).toEqual([]);
  });
});

describe("SI-4: notifications/elicitation/complete from a client completes nothing", () => {
  const complete = (elicitationId: string, era: "modern" | "legacy") =>
    JSON.stringify({ jsonrpc: "2.0", method: "notifications/elicitation/complete", params: { elicitationId, ...(era === "modern" && { _meta: URL_META }) } });
  const headers = (era: "modern" | "legacy") => (era === "modern" ? { ...MODERN_HEADERS, "mcp-method": "notifications/elicitation/complete" } : LEGACY_HEADERS);

  it.each(["modern", "legacy"] as const)("SI-4: %s notifications for the victim's, never-issued and confusable ids, from the victim and another principal, leave the approval pending", async (era) => {
    const app = createApprovalsApp();
    const { url } = await serveWithElicitation(app);
    const dana = await connectLegacyWithUrl(url, "tok-dana");
    const error = (await dana.callTool({ name: "payments_refund", arguments: ARGS }).then(
      () => undefined,
      (e: unknown) => e,
    )) as { data?: { elicitations?: { elicitationId: string }[] } };
    const approvalId = error.data!.elicitations![0]!.elicitationId;
    const ids = [approvalId, approvalId.toUpperCase(), ` ${approvalId}`, `${approvalId}\u200B`, "apr_00000000-0000-4000-8000-000000000000", "x".repeat(100_000)];
    for (const token of ["tok-dana", "tok-priya"]) {
      for (const id of ids) {
        const response = await post(url, complete(id, era), headers(era), token);
        await response.text();
        expect(response.status).toBeLessThan(500);
      }
    }
    expect((await app.runtime.approvals.get(approvalId))?.status).toBe("pending");
    // The victim's own retry still finds its approval pending and is asked again.
    const retry = (await dana.callTool({ name: "payments_refund", arguments: ARGS }).then(
      () => undefined,
      (e: unknown) => e,
    )) as { code?: number; data?: { elicitations?: { elicitationId: string }[] } };
    expect(retry.code).toBe(-32042);
    expect(retry.data!.elicitations![0]!.elicitationId).toBe(approvalId);
    expect(app.executions).toEqual([]);
  });
});

describe("SI-4: on stdio, completion notifications relay only decisions the app reports for the waiting approval", () => {
  const asked = async (client: Awaited<ReturnType<typeof connectLegacyStdioWithUrl>>["client"]) =>
    (await client.callTool({ name: "payments_refund", arguments: ARGS }).then(
      () => undefined,
      (e: unknown) => e,
    )) as { code?: number; data?: { elicitations?: { elicitationId: string }[] } };

  it("SI-4: decisions reported for never-issued or look-alike ids send nothing; replayed and late reports send one notification; none of them runs anything", async () => {
    const app = createApprovalsApp();
    const { client, listeners, notified, report, nextNotification } = await connectLegacyStdioWithUrl(app);
    const approvalId = (await asked(client)).data!.elicitations![0]!.elicitationId;
    for (const id of ["apr_never_issued", approvalId.toUpperCase(), ` ${approvalId}`, `${approvalId}\u200B`]) report(id);
    // Look-alikes of the waiting id are other ids: nothing is sent and the subscription is still held.
    expect(listeners.size).toBe(1);
    await approve(app, approvalId);
    const heard = nextNotification();
    report(approvalId);
    report(approvalId);
    await heard;
    expect(listeners.size).toBe(0);
    report(approvalId);
    // A ping round trip: any notification sent before it has arrived by then.
    await client.ping();
    expect(notified).toEqual([approvalId]);
    expect(app.executions).toEqual([]);
    expect(((await client.callTool({ name: "payments_refund", arguments: ARGS })) as { structuredContent?: unknown }).structuredContent).toEqual({ status: "ok", data: { refunded: 5 } });
    report(approvalId);
    await client.ping();
    expect(notified).toEqual([approvalId]);
    expect(app.executions).toEqual([ARGS]);
  });

  it("SI-4: a report for a still-pending approval (a replayed or forged decision) notifies, and the retry is asked again; nothing runs", async () => {
    const app = createApprovalsApp();
    const { client, report, nextNotification, notified } = await connectLegacyStdioWithUrl(app);
    const approvalId = (await asked(client)).data!.elicitations![0]!.elicitationId;
    const heard = nextNotification();
    report(approvalId);
    await heard;
    expect(notified).toEqual([approvalId]);
    const again = await asked(client);
    expect(again.code).toBe(-32042);
    expect(again.data!.elicitations![0]!.elicitationId).toBe(approvalId);
    expect((await app.runtime.approvals.get(approvalId))?.status).toBe("pending");
    expect(app.executions).toEqual([]);
  });
});
