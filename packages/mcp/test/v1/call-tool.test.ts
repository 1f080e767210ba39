// docs/architecture/spec/adapters.md#adapters-3-5–docs/architecture/spec/adapters.md#adapters-3-6: tools/call resolves the name, invokes with the arguments as sent and the request's abort
// signal, and returns one CallToolResult shape per status (docs/architecture/spec/adapters.md#adapters-3-10 items 9 and 12, cancellation server-side).
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import type { AgentRuntime } from "@orpc-agent/core";
import { createMCPServer, type MCPServerOptions } from "../../src/v1/index.js";
import { createTestApp, dana } from "../support/app.js";
import { closeEverythingAfterEachTest } from "../support/cleanup.js";
import { connectInMemory } from "../support/in-memory.js";

closeEverythingAfterEachTest();

const CONCEALED = '{"status":"error","error":{"code":"CAPABILITY_NOT_FOUND","message":"Capability not found.","retryable":false}}';
const INTERNAL = '{"status":"error","error":{"code":"INTERNAL_ERROR","message":"The operation failed.","retryable":false}}';

async function connect<T>(runtime: AgentRuntime<T>, options: Partial<MCPServerOptions<T>> = {}) {
  const mcp = createMCPServer(runtime, { createContext: () => ({ actor: dana, context: { tenant: "t1" } as T }), ...options });
  return connectInMemory(mcp);
}

/** docs/architecture/spec/adapters.md#adapters-3-6: the envelope twice, as text and structured; isError exactly for errors. */
function expectResultShape(result: CallToolResult): unknown {
  expect(Object.keys(result).sort()).toEqual(["content", "isError", "structuredContent"]);
  expect(result.content).toHaveLength(1);
  const [content] = result.content;
  expect(content!.type).toBe("text");
  const text = (content as { text: string }).text;
  expect(result.structuredContent).toEqual(JSON.parse(text));
  expect(result.isError).toBe((result.structuredContent as { status: string }).status === "error");
  return result.structuredContent;
}

describe("CallToolResult for every status", () => {
  it("completed: { status: ok, data }, not an error", async () => {
    const { runtime } = createTestApp();
    const { client } = await connect(runtime);
    const result = (await client.callTool({ name: "orders_get", arguments: { id: "o1" } })) as CallToolResult;
    expect(expectResultShape(result)).toEqual({ status: "ok", data: { id: "o1", readBy: "u_dana" } });
    expect((result.content[0] as { text: string }).text).toBe('{"status":"ok","data":{"id":"o1","readBy":"u_dana"}}');
    expect(result.isError).toBe(false);
  });

  it("approval-required: approvalId, message, expiresAt; not an error", async () => {
    const { runtime } = createTestApp();
    const { client } = await connect(runtime);
    const result = (await client.callTool({ name: "orders_refund", arguments: { orderId: "o1", amount: 5 } })) as CallToolResult;
    const envelope = expectResultShape(result) as Record<string, string>;
    expect(Object.keys(envelope)).toEqual(["status", "approvalId", "message", "expiresAt"]);
    const record = await runtime.approvals.get(envelope.approvalId!);
    expect(envelope).toEqual({
      status: "approval-required",
      approvalId: expect.stringMatching(/^apr_/),
      message: "Awaiting approval: Approval is required for orders.refund.",
      expiresAt: record!.expiresAt.toISOString(),
    });
    expect(result.isError).toBe(false);
  });

  it("failed: the serialized error; INPUT_INVALID carries issue paths, never values", async () => {
    const { runtime } = createTestApp();
    const { client } = await connect(runtime);
    const failed = (await client.callTool({ name: "notes_fail", arguments: {} })) as CallToolResult;
    expect(JSON.stringify(expectResultShape(failed))).toBe(INTERNAL);
    expect(JSON.stringify(failed)).not.toContain("hunter2");
    expect(failed.isError).toBe(true);

    const invalid = (await client.callTool({ name: "notes_count", arguments: { n: "secret-string-value" } })) as CallToolResult;
    expect(expectResultShape(invalid)).toEqual({
      status: "error",
      error: { code: "INPUT_INVALID", message: "Input validation failed.", retryable: false, details: { issues: [{ path: ["n"], message: expect.any(String) }] } },
    });
    expect(JSON.stringify(invalid)).not.toContain("secret-string-value");
  });

  it("cancelled: TIMEOUT is an error result, retryable", async () => {
    const { runtime, interruptions } = createTestApp();
    const { client } = await connect(runtime);
    const result = (await client.callTool({ name: "notes_sleepy", arguments: {} })) as CallToolResult;
    expect(expectResultShape(result)).toEqual({ status: "error", error: { code: "TIMEOUT", message: "The operation timed out.", retryable: true } });
    expect(await interruptions.settled("notes.sleepy")).toEqual({ aborted: true });
  });
});

describe("arguments", () => {
  it("reach the runtime as sent: no coercion, no stripping, no defaults", async () => {
    const { runtime } = createTestApp();
    const { client } = await connect(runtime);
    const args = { nested: { list: [1, "2", null] }, flag: false, "odd key": "x" };
    const echoed = await client.callTool({ name: "notes_echo", arguments: args });
    expect(echoed.structuredContent).toEqual({ status: "ok", data: { received: args } });
    // A numeric string is not coerced into the number the schema wants: the runtime refuses it.
    const count = await client.callTool({ name: "notes_count", arguments: { n: "3" } });
    expect(count.structuredContent).toMatchObject({ status: "error", error: { code: "INPUT_INVALID" } });
  });

  it("omitted arguments are invoked as {}", async () => {
    const { runtime } = createTestApp();
    const { client } = await connect(runtime);
    const echoed = await client.callTool({ name: "notes_echo" });
    expect(echoed.structuredContent).toEqual({ status: "ok", data: { received: {} } });
  });
});

describe("names and concealment (SI-8)", () => {
  it("unknown, unexposed, policy-hidden and raw dotted ids are byte-identical CAPABILITY_NOT_FOUND results", async () => {
    const { runtime, auditEvents } = createTestApp();
    const { client } = await connect(runtime);
    const probes = ["no_such_tool", "notes_internal", "admin_purge", "orders.get", "notes.echo"];
    const results = await Promise.all(probes.map((name) => client.callTool({ name, arguments: {} })));
    for (const [i, result] of results.entries()) {
      expect(JSON.stringify(result), probes[i]).toBe(JSON.stringify(results[0]));
      expect(JSON.stringify(result.structuredContent)).toBe(CONCEALED);
      expect(result.isError).toBe(true);
    }
    const events = await auditEvents();
    const denied = (id: string) => events.filter((e) => e.type === "capability.denied" && e.capabilityId === id).map((e) => (e.data as { reason: string }).reason);
    expect(denied("no_such_tool")).toEqual(["unknown"]);
    expect(denied("notes.internal")).toEqual(["not-exposed"]);
    expect(denied("admin.purge")).toEqual(["hidden"]);
    // A raw id addressed by another wire name never reaches the runtime (docs/architecture/spec/adapters.md#adapters-1-4).
    expect(events.filter((e) => e.capabilityId === "orders.get" || e.capabilityId === "notes.echo")).toEqual([]);
  });

  it("an unexpected runtime rejection is the concealed INTERNAL_ERROR result, never a JSON-RPC error or its message", async () => {
    const { runtime } = createTestApp();
    const broken = { ...runtime, registry: runtime.registry, invoke: () => Promise.reject(new Error("segfault in billing-7")) } as typeof runtime;
    const { client } = await connect(broken);
    const result = (await client.callTool({ name: "orders_get", arguments: { id: "o1" } })) as CallToolResult;
    expect(JSON.stringify(expectResultShape(result))).toBe(INTERNAL);
    expect(JSON.stringify(result)).not.toContain("billing-7");
  });

  it("output JSON cannot carry is concealed rather than a protocol error", async () => {
    const { runtime } = createTestApp();
    const bigint = { ...runtime, registry: runtime.registry, invoke: async () => ({ status: "completed", executionId: "x", output: { n: 1n } }) } as unknown as typeof runtime;
    const { client } = await connect(bigint);
    const result = (await client.callTool({ name: "orders_get", arguments: { id: "o1" } })) as CallToolResult;
    expect(JSON.stringify(result.structuredContent)).toBe(INTERNAL);
  });
});

describe("cancellation reaches the handler (adapters.md §1.6)", () => {
  it("notifications/cancelled (client abort) aborts the handler: CANCELLED in audit, no response sent", async () => {
    const { runtime, interruptions, auditEvents } = createTestApp();
    const { client } = await connect(runtime);
    const controller = new AbortController();
    const call = client.callTool({ name: "notes_slow", arguments: {} }, undefined, { signal: controller.signal });
    await interruptions.started("notes.slow");
    controller.abort();
    await expect(call).rejects.toThrow();
    expect(await interruptions.settled("notes.slow")).toEqual({ aborted: true });
    await expect.poll(async () => (await auditEvents()).filter((e) => e.type === "capability.cancelled").map((e) => e.data)).toEqual([
      expect.objectContaining({ code: "CANCELLED" }),
    ]);
  });

  it("closing the transport aborts a running handler", async () => {
    const { runtime, interruptions, auditEvents } = createTestApp();
    const session = await connect(runtime);
    const call = session.client.callTool({ name: "notes_slow", arguments: {} });
    await interruptions.started("notes.slow");
    await session.close();
    await expect(call).rejects.toThrow(/Connection closed/);
    expect(await interruptions.settled("notes.slow")).toEqual({ aborted: true });
    await expect.poll(async () => (await auditEvents()).some((e) => e.type === "capability.cancelled" && e.data.code === "CANCELLED")).toBe(true);
  });
});
