// What `pnpm mcp` offers an MCP client, end to end: a refund above the threshold answers with a link to the approvals
// page, a manager approves there, and the client completes the call with `approvals_resume`, exactly once.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useMcpWithApprovalsPage } from "./support/mcp-with-approvals-page.js";

const example = useMcpWithApprovalsPage("orpc-agent-mcp-round-trip-", 60_000);
let client: Client;

type Envelope = { status: string; approvalId?: string; url?: string; data?: unknown; error?: { code: string } };
const envelopeOf = (result: Awaited<ReturnType<Client["callTool"]>>) => result.structuredContent as Envelope;

describe("an MCP client's approval round trip on the example's endpoint", () => {
  beforeAll(async () => {
    client = new Client({ name: "round-trip-client", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(example.mcpUrl()), { requestInit: { headers: { Authorization: "Bearer demo-token-dana" } } }));
  }, 60_000);

  afterAll(async () => {
    await client?.close();
  });

  it("files the refund, links to the page, completes once after the manager approves there", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain("approvals_resume");

    const asked = envelopeOf(await client.callTool({ name: "orders_refund", arguments: { orderId: "o_1002", amountCents: 32_000, reason: "Keyboard arrived broken" } }));
    expect(asked.status).toBe("approval-required");
    expect(asked.url).toBe(`${example.page().href}?as=u_priya#${encodeURIComponent(asked.approvalId!)}`);
    expect(example.store().effects.refunds).toBe(0);

    // Before anyone decides, the resume tool says so and runs nothing.
    const early = envelopeOf(await client.callTool({ name: "approvals_resume", arguments: { approvalId: asked.approvalId } }));
    expect(early.status).not.toBe("ok");
    expect(example.store().effects.refunds).toBe(0);

    // Priya approves on the page; the page leaves the call to the client that made it.
    const decided = await example.approveOnPage(asked.approvalId!);
    expect(await decided.text()).toContain("the MCP client completes the call");
    expect(example.store().effects.refunds).toBe(0);

    const done = envelopeOf(await client.callTool({ name: "approvals_resume", arguments: { approvalId: asked.approvalId } }));
    expect(done).toMatchObject({ status: "ok", data: { orderId: "o_1002", amountCents: 32_000, approvedBy: "u_priya" } });
    const again = envelopeOf(await client.callTool({ name: "approvals_resume", arguments: { approvalId: asked.approvalId } }));
    expect(again).toMatchObject({ status: "error", error: { code: "APPROVAL_CONSUMED" } });
    expect(example.store().effects.refunds).toBe(1);
  }, 60_000);
});
