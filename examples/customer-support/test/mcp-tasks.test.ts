// The example's MCP endpoint offers tasks (issue 47): a 2026-07-28 client that declares io.modelcontextprotocol/tasks
// gets the refund above the threshold as a task, Priya approves on the approvals page, and the client's next poll
// finds it completed on the server, exactly once. Raw 2026-07-28 requests, as a client library would send them.
import { describe, expect, it } from "vitest";
import { useMcpWithApprovalsPage } from "./support/mcp-with-approvals-page.js";

const example = useMcpWithApprovalsPage("orpc-agent-mcp-tasks-", 180_000);

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "tasks-client", version: "1.0.0" },
  "io.modelcontextprotocol/clientCapabilities": { elicitation: { url: {} }, extensions: { "io.modelcontextprotocol/tasks": {} } },
};

async function request(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
  const name = method === "tools/call" ? String(params.name) : String(params.taskId);
  const response = await fetch(example.mcpUrl(), {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      authorization: "Bearer demo-token-dana",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": method,
      "mcp-name": name,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: META } }),
  });
  const text = await response.text();
  const json = (response.headers.get("content-type") ?? "").includes("text/event-stream")
    ? text.split("\n").filter((line) => line.startsWith("data: ")).map((line) => JSON.parse(line.slice(6))).at(-1)
    : JSON.parse(text);
  return json.result as Record<string, unknown>;
}

describe("the example's MCP endpoint offers tasks", () => {
  it("a refund above the threshold is a task in input_required with the page's link; approved there, the next poll finds it completed once", async () => {
    const task = await request("tools/call", { name: "orders_refund", arguments: { orderId: "o_1002", amountCents: 32_000, reason: "Keyboard arrived broken" } });
    expect(task).toMatchObject({ resultType: "task", status: "input_required", pollIntervalMs: 1_000 });
    const link = (task.inputRequests as { approval: { params: { url: string } } }).approval.params.url;
    expect(link.startsWith(`${example.page().href}?as=u_priya#`)).toBe(true);
    const approvalId = decodeURIComponent(new URL(link).hash.slice(1));
    expect(example.store().effects.refunds).toBe(0);

    const decided = await example.approveOnPage(approvalId);
    expect(decided.status).toBe(200);
    expect(example.store().effects.refunds).toBe(0);

    let polled = await request("tasks/get", { taskId: task.taskId });
    while (polled.status === "working") polled = await request("tasks/get", { taskId: task.taskId });
    expect(polled).toMatchObject({
      status: "completed",
      result: { structuredContent: { status: "ok", data: { orderId: "o_1002", amountCents: 32_000, approvedBy: "u_priya" } } },
    });
    expect(example.store().effects.refunds).toBe(1);
  }, 60_000);
});
