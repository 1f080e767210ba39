// Approvals the protocol understands (issue 24): a client that declared URL elicitation is sent to the app's
// approval URL in its revision's native shape — 2026-07-28 `input_required` with an `elicitUrl` request and a
// `requestState`, 2025-11-25 the `-32042` error — and its retry resumes the approval through `runtime.resume`.
// The approver decides in the app (`runtime.approvals.decide`), never through MCP.
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { serveMCPStdio } from "../../src/stdio/serve-stdio.js";
import { closeAfterTest, closeEverythingAfterEachTest } from "../support/cleanup.js";
import {
  approvalIdOf,
  approvalUrl,
  approve,
  connectLegacyStdioWithUrl,
  connectLegacyWithUrl,
  connectModernWithUrl,
  createApprovalsApp,
  reject,
  serveWithElicitation,
  STATE_KEYS,
  type UrlElicitation,
} from "./approvals-app.js";
import { connectLegacy, connectModern } from "../support/handler.js";

closeEverythingAfterEachTest();
afterEach(() => void vi.useRealTimers());

const REFUND = { name: "payments_refund", arguments: { orderId: "o1", amount: 5 } };
type Result = { structuredContent?: unknown; isError?: boolean; content?: { type: string; text?: string }[] };

/** Moves the clock (Date only, so sockets and timers run as usual) past an approval's expiry. */
function afterExpiry(ms: number): void {
  const now = Date.now();
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(now + ms);
}

describe("2026-07-28 (v2 Client, URL elicitation declared)", () => {
  it("call → elicitUrl to the app's approval URL → approved in the app → the client retries → completed exactly once", async () => {
    const app = createApprovalsApp();
    const { url } = await serveWithElicitation(app);
    const seen: UrlElicitation[] = [];
    const client = await connectModernWithUrl(url, "tok-dana", async (elicitation) => {
      seen.push(elicitation);
      await approve(app, approvalIdOf(elicitation.url));
      return "accept";
    });
    const result = (await client.callTool(REFUND)) as Result;
    expect(result.structuredContent).toEqual({ status: "ok", data: { refunded: 5 } });
    expect(result.isError).toBe(false);
    expect(app.executions).toEqual([{ orderId: "o1", amount: 5 }]);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ mode: "url", url: expect.stringMatching(/^https:\/\/approvals\.example\.test\/requests\/apr_/) });
    expect(seen[0]!.message).toMatch(/^Awaiting approval: Approval is required for payments\.refund\. .*authorized person/);
    const record = await app.runtime.approvals.get(approvalIdOf(seen[0]!.url));
    expect(record?.status).toBe("consumed");
  });

  it("pending: a retry before the decision is asked again (same link), and the next retry after approval runs once", async () => {
    const app = createApprovalsApp();
    const { url } = await serveWithElicitation(app);
    const seen: string[] = [];
    const client = await connectModernWithUrl(url, "tok-dana", async (elicitation) => {
      seen.push(elicitation.url);
      if (seen.length === 2) await approve(app, approvalIdOf(elicitation.url));
      return "accept";
    });
    const result = (await client.callTool(REFUND)) as Result;
    expect(result.structuredContent).toEqual({ status: "ok", data: { refunded: 5 } });
    expect(seen).toHaveLength(2);
    expect(seen[1]).toBe(seen[0]);
    expect(app.executions).toHaveLength(1);
  });

  it("rejected in the app: the retry answers the usual APPROVAL_REJECTED envelope and nothing runs", async () => {
    const app = createApprovalsApp();
    const { url } = await serveWithElicitation(app);
    const client = await connectModernWithUrl(url, "tok-dana", async (elicitation) => {
      await reject(app, approvalIdOf(elicitation.url));
      return "accept";
    });
    const result = (await client.callTool(REFUND)) as Result;
    expect(result.structuredContent).toEqual({ status: "error", error: { code: "APPROVAL_REJECTED", message: "The approval was rejected.", retryable: false } });
    expect(result.isError).toBe(true);
    expect(app.executions).toEqual([]);
  });

  it("expired before the retry: the usual APPROVAL_EXPIRED envelope and nothing runs", async () => {
    const app = createApprovalsApp({ expiresInMs: 60_000 });
    const { url } = await serveWithElicitation(app);
    const client = await connectModernWithUrl(url, "tok-dana", async (elicitation) => {
      await approve(app, approvalIdOf(elicitation.url));
      afterExpiry(120_000);
      return "accept";
    });
    const result = (await client.callTool(REFUND)) as Result;
    expect(result.structuredContent).toMatchObject({ status: "error", error: { code: "APPROVAL_EXPIRED", retryable: false } });
    expect(app.executions).toEqual([]);
  });

  it("the requestState is signed, not encrypted, and carries no argument values", async () => {
    const app = createApprovalsApp();
    const { url } = await serveWithElicitation(app);
    const client = await connectModernWithUrl(url, "tok-dana", undefined, true);
    const answer = (await client.callTool({ name: "payments_refund", arguments: { orderId: "order-7f3a", amount: 987654 } }, { allowInputRequired: true } as never)) as {
      requestState?: string;
    };
    const [, body] = answer.requestState!.split(".");
    const payload = Buffer.from(body!, "base64url").toString("utf8");
    expect(JSON.parse(payload)).toMatchObject({ capabilityId: "payments.refund", inputHash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(Object.keys(JSON.parse(payload)).sort()).toEqual(["approvalId", "capabilityId", "envelope", "expiresAt", "inputHash", "message", "principal", "url"]);
    expect(payload).not.toContain("order-7f3a");
  });

  it("the user declines to open the link: today's approval-required envelope, so the model can tell them", async () => {
    const app = createApprovalsApp();
    const { url } = await serveWithElicitation(app);
    const client = await connectModernWithUrl(url, "tok-dana", async () => "decline");
    const result = (await client.callTool(REFUND)) as Result;
    expect(result.structuredContent).toMatchObject({
      status: "approval-required",
      approvalId: expect.stringMatching(/^apr_/),
      url: expect.stringMatching(/^https:\/\/approvals\.example\.test\//),
    });
    expect(app.executions).toEqual([]);
  });
});

describe("2025-11-25 (v1 SDK Client, URL elicitation declared)", () => {
  async function urlRequired(call: Promise<unknown>): Promise<{ url: string; elicitationId: string; message: string }> {
    const error = (await call.then(
      () => undefined,
      (e: unknown) => e,
    )) as { code?: number; data?: { elicitations?: { mode: string; url: string; elicitationId: string; message: string }[] } } | undefined;
    expect(error?.code).toBe(-32042);
    const [elicitation] = error!.data!.elicitations!;
    expect(elicitation!.mode).toBe("url");
    return elicitation!;
  }

  it("call → -32042 naming the approval URL → approved in the app → the client retries → completed exactly once", async () => {
    const app = createApprovalsApp();
    const { url } = await serveWithElicitation(app);
    const client = await connectLegacyWithUrl(url, "tok-dana");
    const elicitation = await urlRequired(client.callTool(REFUND));
    expect(elicitation.url).toMatch(/^https:\/\/approvals\.example\.test\/requests\/apr_/);
    expect(elicitation.elicitationId).toBe(approvalIdOf(elicitation.url));
    await approve(app, approvalIdOf(elicitation.url));
    const result = (await client.callTool(REFUND)) as Result;
    expect(result.structuredContent).toEqual({ status: "ok", data: { refunded: 5 } });
    expect(app.executions).toEqual([{ orderId: "o1", amount: 5 }]);
  });

  it("pending: a retry before the decision gets -32042 for the same approval, the retry after approval runs once", async () => {
    const app = createApprovalsApp();
    const { url } = await serveWithElicitation(app);
    const client = await connectLegacyWithUrl(url, "tok-dana");
    const first = await urlRequired(client.callTool(REFUND));
    const again = await urlRequired(client.callTool(REFUND));
    expect(again.url).toBe(first.url);
    expect(app.executions).toEqual([]);
    await approve(app, approvalIdOf(first.url));
    expect(((await client.callTool(REFUND)) as Result).structuredContent).toEqual({ status: "ok", data: { refunded: 5 } });
    expect(app.executions).toHaveLength(1);
  });

  it("rejected in the app: the retry answers the usual APPROVAL_REJECTED envelope", async () => {
    const app = createApprovalsApp();
    const { url } = await serveWithElicitation(app);
    const client = await connectLegacyWithUrl(url, "tok-dana");
    const elicitation = await urlRequired(client.callTool(REFUND));
    await reject(app, approvalIdOf(elicitation.url));
    const result = (await client.callTool(REFUND)) as Result;
    expect(result.structuredContent).toMatchObject({ status: "error", error: { code: "APPROVAL_REJECTED" } });
    expect(app.executions).toEqual([]);
  });

  it("expired before the retry: the usual APPROVAL_EXPIRED envelope", async () => {
    const app = createApprovalsApp({ expiresInMs: 60_000 });
    const { url } = await serveWithElicitation(app);
    const client = await connectLegacyWithUrl(url, "tok-dana");
    const elicitation = await urlRequired(client.callTool(REFUND));
    await approve(app, approvalIdOf(elicitation.url));
    afterExpiry(120_000);
    const result = (await client.callTool(REFUND)) as Result;
    expect(result.structuredContent).toMatchObject({ status: "error", error: { code: "APPROVAL_EXPIRED" } });
    expect(app.executions).toEqual([]);
  });
});

describe("a 2025-11-25 connection (stdio): the capability declared at initialize on that connection", () => {
  it("call → -32042 → approved in the app → retry → completed once, over serveMCPStdio", async () => {
    const app = createApprovalsApp();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const handle = serveMCPStdio(app.runtime, {
      createContext: () => ({ actor: { id: "u_dana", kind: "user" }, context: {} }),
      approvals: { url: (record) => approvalUrl(record.id) },
      urlElicitation: { keys: STATE_KEYS },
      transport: serverSide as never,
    });
    closeAfterTest(() => handle.close());
    const client = new LegacyClient({ name: "stdio-url", version: "1.0.0" }, { capabilities: { elicitation: { url: {} } } });
    await client.connect(clientSide);
    closeAfterTest(() => client.close());
    const error = (await client.callTool(REFUND).then(
      () => undefined,
      (e: unknown) => e,
    )) as { code?: number; data?: { elicitations?: { url: string }[] } };
    expect(error.code).toBe(-32042);
    await approve(app, approvalIdOf(error.data!.elicitations![0]!.url));
    expect(((await client.callTool(REFUND)) as Result).structuredContent).toEqual({ status: "ok", data: { refunded: 5 } });
    expect(app.executions).toHaveLength(1);
  });
});

describe("notifications/elicitation/complete, where a connection outlives the call", () => {
  it("with urlElicitation.decisions, a stdio 2025-11-25 client hears that its approval was decided, then retries once", async () => {
    const app = createApprovalsApp();
    const { client, listeners, notified, report, nextNotification } = await connectLegacyStdioWithUrl(app);
    const error = (await client.callTool(REFUND).then(
      () => undefined,
      (e: unknown) => e,
    )) as { code?: number; data?: { elicitations?: { url: string; elicitationId: string }[] } };
    expect(error.code).toBe(-32042);
    const { elicitationId, url } = error.data!.elicitations![0]!;
    expect(listeners.size).toBe(1);
    // The app decides, then reports it: the adapter only relays that a decision exists, never what it was.
    await approve(app, approvalIdOf(url));
    const heard = nextNotification();
    report(approvalIdOf(url));
    await heard;
    expect(notified).toEqual([elicitationId]);
    expect(listeners.size).toBe(0);
    expect(((await client.callTool(REFUND)) as Result).structuredContent).toEqual({ status: "ok", data: { refunded: 5 } });
    expect(app.executions).toHaveLength(1);
  });

  it("a stateless HTTP exchange cannot send it later, so nothing waits there", async () => {
    const app = createApprovalsApp();
    const listeners = new Set<(approvalId: string) => void>();
    const { url } = await serveWithElicitation(app, {
      urlElicitation: { keys: STATE_KEYS, decisions: (listener) => void listeners.add(listener) },
    });
    const client = await connectLegacyWithUrl(url, "tok-dana");
    const error = (await client.callTool(REFUND).then(
      () => undefined,
      (e: unknown) => e,
    )) as { code?: number };
    expect(error.code).toBe(-32042);
    expect(listeners.size).toBe(0);
  });
});

describe("clients without URL elicitation keep today's envelope", () => {
  it.each([
    ["2026-07-28 (v2 Client)", connectModern],
    ["2025-11-25 (v1 Client)", connectLegacy],
  ] as const)("%s: approval-required with the url, on the same endpoint", async (_era, connect) => {
    const app = createApprovalsApp();
    const { url } = await serveWithElicitation(app, { approvals: { url: (record) => `https://approvals.example.test/requests/${record.id}`, resumeTool: true } });
    const client = await connect(url, "tok-dana");
    const result = (await client.callTool(REFUND)) as Result;
    expect(result.structuredContent).toMatchObject({ status: "approval-required", url: expect.stringMatching(/^https:/) });
    const envelope = result.structuredContent as { approvalId: string; message: string };
    expect(envelope.message).toMatch(/call approvals_resume with this approvalId/);
    await approve(app, envelope.approvalId);
    const resumed = (await client.callTool({ name: "approvals_resume", arguments: { approvalId: envelope.approvalId } })) as Result;
    expect(resumed.structuredContent).toEqual({ status: "ok", data: { refunded: 5 } });
    expect(app.executions).toHaveLength(1);
  });
});
