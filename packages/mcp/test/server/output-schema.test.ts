// Every tool on the v2 path advertises the envelope as its `outputSchema`, and `structuredContent` validates against
// it for all four statuses in both SDK clients, which check it on every call (issue 24). Plus `title` and the
// governance facts under the namespaced `_meta` key.
import { describe, expect, it } from "vitest";
import { createTestApp } from "../support/app.js";
import { createTypedApp } from "./typed-app.js";
import { closeEverythingAfterEachTest } from "../support/cleanup.js";
import { connectModern, ERAS, serveApp } from "../support/handler.js";

closeEverythingAfterEachTest();

type Result = { structuredContent?: { status?: string; error?: { code?: string } }; isError?: boolean };

const CALLS = [
  { status: "completed", call: { name: "notes_whoami", arguments: {} }, expected: { status: "ok" } },
  { status: "approval-required", call: { name: "orders_refund", arguments: { orderId: "o1", amount: 5 } }, expected: { status: "approval-required" } },
  { status: "failed", call: { name: "notes_fail", arguments: {} }, expected: { status: "error", error: { code: "INTERNAL_ERROR" } } },
  { status: "cancelled", call: { name: "notes_sleepy", arguments: {} }, expected: { status: "error", error: { code: "TIMEOUT" } } },
] as const;

describe.each(ERAS)("$era", ({ connect }) => {
  it("every tool, the resume tool included, advertises the envelope outputSchema with an object root", async () => {
    const { url } = await serveApp(createTestApp(), { approvals: { resumeTool: true } });
    const { tools } = (await (await connect(url, "tok-dana")).listTools()) as { tools: { name: string; outputSchema?: { $id?: string; type?: string; oneOf?: unknown[] } }[] };
    expect(tools.length).toBeGreaterThan(2);
    for (const tool of tools) {
      expect(tool.outputSchema?.type).toBe("object");
      expect(tool.outputSchema?.oneOf).toHaveLength(3);
      // One versioned id: both SDK clients compile the validator once per id instead of once per tool and listing.
      expect(tool.outputSchema?.$id).toBe("urn:orpc-agent:mcp:result-envelope:3");
    }
  });

  it.each(CALLS)("$status: structuredContent validates in the SDK client", async ({ call, expected }) => {
    const client = await connect((await serveApp(createTestApp())).url, "tok-dana");
    await client.listTools(); // the SDK validates results against the listed outputSchema
    const result = (await client.callTool(call)) as Result;
    expect(result.structuredContent).toMatchObject(expected);
    expect(result.isError).toBe(expected.status === "error");
  });

  it("title from meta.adapters.mcp.annotations.title; governance facts under orpc-agent/governance", async () => {
    const app = createTestApp();
    const { url } = await serveApp(app);
    const { tools } = (await (await connect(url, "tok-dana")).listTools()) as { tools: { name: string; title?: string; _meta?: Record<string, unknown> }[] };
    const refund = tools.find((tool) => tool.name === "orders_refund")!;
    expect(refund._meta?.["orpc-agent/governance"]).toEqual({ capabilityId: "orders.refund", risk: "high", sideEffect: "write", requiresApproval: true, approval: "always" });
    const get = tools.find((tool) => tool.name === "orders_get")!;
    expect(get._meta?.["orpc-agent/governance"]).toEqual({ capabilityId: "orders.get", risk: "low", sideEffect: "read", requiresApproval: false, approval: "never" });
    expect(get.title).toBeUndefined();
  });
});

describe("the SDK client really checks structuredContent against the schema", () => {
  it("the v2 Client refuses a result that does not match a (stricter) outputSchema", async () => {
    const client = await connectModern((await serveApp(createTestApp())).url, "tok-dana");
    const { tools } = await client.listTools();
    const whoami = tools.find((tool) => tool.name === "notes_whoami")!;
    const onlyErrors = { ...whoami, outputSchema: { type: "object" as const, properties: { status: { const: "error" } }, required: ["status"] } };
    await expect(client.callTool({ name: "notes_whoami", arguments: {} }, { toolDefinition: onlyErrors })).rejects.toThrow(/structured content does not match|outputSchema|validat/i);
  });
});

describe.each(ERAS)("a capability's output schema types data ($era)", ({ connect }) => {
  type Listed = { name: string; outputSchema?: { $id?: string; $defs?: { data?: unknown }; oneOf?: { properties?: { data?: unknown } }[] } };

  it("a tool whose capability declares an output schema carries it for data, under no shared $id; the others keep data open", async () => {
    const client = await connect((await serveApp(createTypedApp())).url, "tok-dana");
    const { tools } = (await client.listTools()) as { tools: Listed[] };
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool.outputSchema]));
    expect(byName.refunds_create?.$id).toBeUndefined();
    expect(byName.refunds_create?.oneOf?.[0]?.properties?.data).toEqual({ $ref: "#/$defs/data" });
    expect(byName.refunds_create?.$defs?.data).toMatchObject({ type: "object", required: ["refundId", "amountCents"] });
    for (const open of ["refunds_masked", "refunds_plain"]) {
      expect(byName[open]?.$id).toBe("urn:orpc-agent:mcp:result-envelope:3");
      expect(byName[open]?.$defs).toBeUndefined();
    }
  });

  it.each([
    ["refunds_create", { status: "ok", data: { refundId: "r_1", amountCents: 500 } }],
    ["refunds_masked", { status: "ok", data: { refundId: "[redacted]" } }],
    ["refunds_plain", { status: "ok", data: { anything: [1, "two"] } }],
    ["forms_own", { status: "error", error: { code: "INPUT_INVALID", message: "Row 7 is invalid.", retryable: false } }],
    ["forms_issues", { status: "error", error: { code: "INPUT_INVALID", message: "Input validation failed.", retryable: false, details: { issues: [{ path: ["amount"], message: "Too large." }] } } }],
  ])("%s: structuredContent validates in the SDK client", async (name, expected) => {
    const client = await connect((await serveApp(createTypedApp())).url, "tok-dana");
    await client.listTools(); // the SDK validates results against the listed outputSchema
    const result = (await client.callTool({ name, arguments: {} })) as Result & { content?: { text?: string }[] };
    expect(result.structuredContent).toEqual(expected);
    expect(JSON.parse(result.content![0]!.text!)).toEqual(expected);
  });
});
