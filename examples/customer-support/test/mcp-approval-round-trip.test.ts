// What `pnpm mcp` offers an MCP client, end to end: a refund above the threshold answers with a link to the approvals
// page, a manager approves there, and the client completes the call with `approvals_resume`, exactly once.
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSupportRuntime } from "../src/agent/runtime.js";
import { openStorage, type Storage } from "../src/agent/storage.js";
import { createStore, type Store } from "../src/domain/store.js";
import { startMcpServer } from "../src/mcp/server.js";
import { createApprovalsApp } from "../src/web/approvals-app.js";

const dataDir = mkdtempSync(join(tmpdir(), "orpc-agent-mcp-round-trip-"));
let storage: Storage;
let shutdown: () => Promise<void>;
let store: Store;
let web: Server;
let page: URL;
let mcp: Awaited<ReturnType<typeof startMcpServer>>;
let client: Client;

type Envelope = { status: string; approvalId?: string; url?: string; data?: unknown; error?: { code: string } };
const envelopeOf = (result: Awaited<ReturnType<Client["callTool"]>>) => result.structuredContent as Envelope;

describe("an MCP client's approval round trip on the example's endpoint", () => {
  beforeAll(async () => {
    storage = await openStorage({ dataDir, databaseUrl: "" });
    const support = createSupportRuntime(storage);
    shutdown = support.shutdown;
    store = createStore();
    web = createServer(createApprovalsApp(support.runtime, store));
    await new Promise<void>((resolve) => web.listen(0, "127.0.0.1", resolve));
    page = new URL(`http://127.0.0.1:${(web.address() as AddressInfo).port}/`);
    mcp = await startMcpServer(support.runtime, store, 0, { approvalsPage: page });
    client = new Client({ name: "round-trip-client", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(mcp.url), { requestInit: { headers: { Authorization: "Bearer demo-token-dana" } } }));
  }, 60_000);

  afterAll(async () => {
    await client?.close();
    await mcp?.close();
    web?.close();
    await shutdown?.();
    await storage?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("files the refund, links to the page, completes once after the manager approves there", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain("approvals_resume");

    const asked = envelopeOf(await client.callTool({ name: "orders_refund", arguments: { orderId: "o_1002", amountCents: 32_000, reason: "Keyboard arrived broken" } }));
    expect(asked.status).toBe("approval-required");
    expect(asked.url).toBe(`${page.href}?as=u_priya#${encodeURIComponent(asked.approvalId!)}`);
    expect(store.effects.refunds).toBe(0);

    // Before anyone decides, the resume tool says so and runs nothing.
    const early = envelopeOf(await client.callTool({ name: "approvals_resume", arguments: { approvalId: asked.approvalId } }));
    expect(early.status).not.toBe("ok");
    expect(store.effects.refunds).toBe(0);

    // Priya approves on the page; the page leaves the call to the client that made it.
    const decided = await fetch(new URL(`/approvals/${encodeURIComponent(asked.approvalId!)}/decide?as=u_priya`, page), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "decision=approved",
    });
    expect(await decided.text()).toContain("the MCP client completes the call");
    expect(store.effects.refunds).toBe(0);

    const done = envelopeOf(await client.callTool({ name: "approvals_resume", arguments: { approvalId: asked.approvalId } }));
    expect(done).toMatchObject({ status: "ok", data: { orderId: "o_1002", amountCents: 32_000, approvedBy: "u_priya" } });
    const again = envelopeOf(await client.callTool({ name: "approvals_resume", arguments: { approvalId: asked.approvalId } }));
    expect(again).toMatchObject({ status: "error", error: { code: "APPROVAL_CONSUMED" } });
    expect(store.effects.refunds).toBe(1);
  }, 60_000);
});
