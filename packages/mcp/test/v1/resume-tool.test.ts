// docs/architecture/spec/adapters.md#adapters-3-7: approvals are decided in the app, never over MCP. The envelope can carry a link into the
// approver UI; the optional resume tool runs what a human already approved, exactly once (docs/architecture/spec/adapters.md#adapters-3-10 item 11).
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import type { ApprovalRecord } from "@orpc-agent/core";
import { createMCPServer, type MCPServerOptions } from "../../src/v1/index.js";
import { createTestApp, dana, priya, type TestApp } from "../support/app.js";
import { closeEverythingAfterEachTest } from "../support/cleanup.js";
import { connectInMemory, tokenFor } from "../support/in-memory.js";

closeEverythingAfterEachTest();

const ACTORS = { "tok-dana": dana, "tok-priya": priya } as const;

/** One server configuration, one session per token. */
function sessions(app: TestApp, options: Partial<MCPServerOptions<{ tenant: string }>> = {}) {
  const mcp = () =>
    createMCPServer(app.runtime, {
      createContext: ({ authInfo }) => {
        const actor = ACTORS[authInfo?.token as keyof typeof ACTORS];
        return actor ? { actor, context: { tenant: "t1" } } : null;
      },
      ...options,
    });
  return (token: keyof typeof ACTORS) => connectInMemory(mcp(), tokenFor(token)).then((s) => s.client);
}

type Envelope = Record<string, unknown> & { status: string; approvalId?: string; message?: string };

async function call(client: Awaited<ReturnType<ReturnType<typeof sessions>>>, name: string, args?: Record<string, unknown>): Promise<Envelope> {
  return ((await client.callTool({ name, arguments: args })) as CallToolResult).structuredContent as Envelope;
}

const refund = { orderId: "o1", amount: 25 };

describe("approval envelopes", () => {
  it("carry expiresAt always and url when configured, with a sentence about the link", async () => {
    const app = createTestApp();
    const seen: ApprovalRecord[] = [];
    const connect = sessions(app, {
      approvals: {
        url: (record) => {
          seen.push(record);
          return `https://shop.example/approvals/${record.id}`;
        },
      },
    });
    const envelope = await call(await connect("tok-dana"), "orders_refund", refund);
    expect(Object.keys(envelope)).toEqual(["status", "approvalId", "message", "expiresAt", "url"]);
    expect(envelope.url).toBe(`https://shop.example/approvals/${envelope.approvalId}`);
    expect(envelope.expiresAt).toBe(seen[0]!.expiresAt.toISOString());
    expect(envelope.message).toBe(
      "Awaiting approval: Approval is required for orders.refund. Give the user the link in url, so that an authorized person can review and decide.",
    );
  });

  it("an approvals.url returning undefined adds neither url nor the sentence", async () => {
    const app = createTestApp();
    const envelope = await call(await sessions(app, { approvals: { url: () => undefined } })("tok-dana"), "orders_refund", refund);
    expect(envelope).not.toHaveProperty("url");
    expect(envelope.message).toBe("Awaiting approval: Approval is required for orders.refund.");
  });
});

describe("the resume tool", () => {
  it("is absent by default, and a call to its name is just an unknown tool", async () => {
    const app = createTestApp();
    const client = await sessions(app)("tok-dana");
    expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain("approvals_resume");
    expect(await call(client, "approvals_resume", { approvalId: "apr_x" })).toMatchObject({ error: { code: "CAPABILITY_NOT_FOUND" } });
  });

  it("when enabled, is listed with its fixed shape and a description that rules out deciding", async () => {
    const app = createTestApp();
    const { tools } = await (await sessions(app, { approvals: { resumeTool: true } })("tok-dana")).listTools();
    const tool = tools.at(-1)!;
    expect(tool.name).toBe("approvals_resume");
    expect(tool.inputSchema).toEqual({
      type: "object",
      properties: { approvalId: { type: "string" } },
      required: ["approvalId"],
      additionalProperties: false,
    });
    expect(tool.description).toMatch(/cannot approve or reject/);
    expect(tool.description).toMatch(/exactly once/);
  });

  it("pending → decided in the app → ok once → APPROVAL_CONSUMED; messages point at the resume tool", async () => {
    const app = createTestApp();
    const client = await sessions(app, { approvals: { resumeTool: true } })("tok-dana");
    const pending = await call(client, "orders_refund", refund);
    expect(pending.message).toBe(
      "Awaiting approval: Approval is required for orders.refund. Once it is approved, call approvals_resume with this approvalId to run it.",
    );
    const approvalId = pending.approvalId!;

    expect(await call(client, "approvals_resume", { approvalId })).toEqual({
      status: "error",
      error: { code: "APPROVAL_PENDING", message: "The approval decision is still pending.", retryable: true },
    });
    await app.runtime.approvals.decide(approvalId, { status: "approved", approver: priya });
    expect(await call(client, "approvals_resume", { approvalId })).toEqual({ status: "ok", data: { refunded: 25 } });
    expect(await call(client, "approvals_resume", { approvalId })).toEqual({
      status: "error",
      error: { code: "APPROVAL_CONSUMED", message: "The approval has already been used.", retryable: false },
    });
    const started = (await app.auditEvents()).filter((e) => e.type === "capability.started" && e.capabilityId === "orders.refund");
    expect(started).toHaveLength(1);
    // The token's OAuth client is the acting agent beside the user.
    expect(started[0]!.actor).toEqual({ id: "u_dana", kind: "user", via: { id: "test-client" } });
  });

  it("a rejected approval fails APPROVAL_REJECTED for its owner", async () => {
    const app = createTestApp();
    const client = await sessions(app, { approvals: { resumeTool: true } })("tok-dana");
    const { approvalId } = await call(client, "orders_refund", refund);
    await app.runtime.approvals.decide(approvalId!, { status: "rejected", approver: priya });
    expect(await call(client, "approvals_resume", { approvalId })).toMatchObject({ error: { code: "APPROVAL_REJECTED" } });
  });

  it("another actor's approval is indistinguishable from an unknown id, and runs nothing", async () => {
    const app = createTestApp();
    const connect = sessions(app, { approvals: { resumeTool: true } });
    const { approvalId } = await call(await connect("tok-dana"), "orders_refund", refund);
    await app.runtime.approvals.decide(approvalId!, { status: "approved", approver: priya });

    const asPriya = await connect("tok-priya");
    const foreign = await call(asPriya, "approvals_resume", { approvalId });
    const unknown = await call(asPriya, "approvals_resume", { approvalId: "apr_00000000-0000-4000-8000-000000000000" });
    expect(JSON.stringify(foreign)).toBe(JSON.stringify(unknown));
    expect(foreign).toEqual({ status: "error", error: { code: "INTERNAL_ERROR", message: "The operation failed.", retryable: false } });
    expect((await app.runtime.approvals.get(approvalId!))?.status).toBe("approved");
    // Audited under the caller (ADR-012 §6).
    const mismatch = (await app.auditEvents()).filter((e) => e.type === "capability.failed" && e.data.code === "APPROVAL_RESUME_MISMATCH");
    expect(mismatch.map((e) => e.actor.id)).toEqual(["u_priya"]);
  });

  it("an approval requested on another surface is concealed over MCP", async () => {
    const app = createTestApp();
    const direct = await app.runtime.invoke("orders.refund", refund, { actor: dana, context: { tenant: "t1" }, surface: "direct" });
    if (direct.status !== "approval-required") throw new Error(`expected a suspension, got ${direct.status}`);
    await app.runtime.approvals.decide(direct.approval.id, { status: "approved", approver: priya });
    const client = await sessions(app, { approvals: { resumeTool: true } })("tok-dana");
    expect(await call(client, "approvals_resume", { approvalId: direct.approval.id })).toEqual({
      status: "error",
      error: { code: "INTERNAL_ERROR", message: "The operation failed.", retryable: false },
    });
    expect((await app.runtime.approvals.get(direct.approval.id))?.status).toBe("approved");
  });

  it.each([
    ["missing", {}, [["approvalId"]]],
    ["empty", { approvalId: "" }, [["approvalId"]]],
    ["not a string", { approvalId: 42 }, [["approvalId"]]],
    ["with an extra argument", { approvalId: "apr_x", approve: true }, [["approve"]]],
  ])("an approvalId %s is INPUT_INVALID with the issue path, before the runtime is asked", async (_, args, paths) => {
    const app = createTestApp();
    const client = await sessions(app, { approvals: { resumeTool: true } })("tok-dana");
    const envelope = await call(client, "approvals_resume", args);
    expect(envelope).toMatchObject({ status: "error", error: { code: "INPUT_INVALID", message: "Input validation failed.", retryable: false } });
    const issues = (envelope.error as { details: { issues: { path: string[]; message: string }[] } }).details.issues;
    expect(issues.map((issue) => issue.path)).toEqual(paths);
    expect(JSON.stringify(envelope)).not.toContain("42");
    expect(await app.auditEvents()).toEqual([]);
  });

  it("takes a custom name and description", async () => {
    const app = createTestApp();
    const client = await sessions(app, { approvals: { resumeTool: { name: "run_approved", description: "Run it." } } })("tok-dana");
    const tools = (await client.listTools()).tools;
    expect(tools.at(-1)).toMatchObject({ name: "run_approved", description: "Run it." });
    expect((await call(client, "orders_refund", refund)).message).toMatch(/call run_approved with this approvalId/);
  });

  it("a resume tool name that collides with a capability's tool name fails construction", () => {
    const app = createTestApp();
    expect(() =>
      createMCPServer(app.runtime, { createContext: () => null, approvals: { resumeTool: { name: "orders_get" } } }),
    ).toThrow(/collision.*"orders_get".*"orders\.get".*resume tool/);
    expect(() => createMCPServer(app.runtime, { createContext: () => null, approvals: { resumeTool: { name: "bad name" } } })).toThrow(TypeError);
  });
});
