// The AI SDK's MCP client (`@ai-sdk/mcp`, on the 2025-11-25 revision) reads typed results from our v2 endpoint:
// given an output schema for the envelope, `execute` returns the parsed `structuredContent` (ok and approval-required);
// an error envelope (`isError: true`) comes back as the raw result, its `structuredContent` the same envelope.
import { createMCPClient } from "@ai-sdk/mcp";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { createTestApp } from "../support/app.js";
import { closeAfterTest, closeEverythingAfterEachTest } from "../support/cleanup.js";
import { serveApp } from "../support/handler.js";

closeEverythingAfterEachTest();

const error = z.object({ code: z.string(), message: z.string(), retryable: z.boolean(), details: z.unknown().optional() });
const envelope = <T extends z.ZodType>(data: T) =>
  z.discriminatedUnion("status", [
    z.object({ status: z.literal("ok"), data }),
    z.object({ status: z.literal("approval-required"), approvalId: z.string(), message: z.string(), expiresAt: z.string(), url: z.string().optional() }),
    z.object({ status: z.literal("error"), error }),
  ]);

const OPTIONS = { toolCallId: "call-1", messages: [] };

/** `execute` is typed as a value or a stream of them; MCP tools answer one value. */
function single<T>(value: T | AsyncIterable<T>): T {
  if (typeof value === "object" && value !== null && Symbol.asyncIterator in value) throw new TypeError("expected one result, not a stream");
  return value as T;
}

describe("@ai-sdk/mcp against the v2 endpoint", () => {
  it("lists our outputSchema and governance _meta, and execute returns the typed envelope for each status", async () => {
    const { url } = await serveApp(createTestApp());
    const client = await createMCPClient({ transport: { type: "http", url: url.href, headers: { authorization: "Bearer tok-dana" } } });
    closeAfterTest(() => client.close());

    const listed = await client.listTools();
    const refundTool = listed.tools.find((tool) => tool.name === "orders_refund")!;
    expect(refundTool.outputSchema).toMatchObject({ type: "object" });
    expect(refundTool._meta?.["orpc-agent/governance"]).toMatchObject({ capabilityId: "orders.refund", requiresApproval: true });

    const tools = await client.tools({
      schemas: {
        notes_whoami: { inputSchema: z.object({}), outputSchema: envelope(z.object({ actor: z.string(), tenant: z.string() })) },
        orders_refund: { inputSchema: z.object({ orderId: z.string(), amount: z.number() }), outputSchema: envelope(z.object({ refunded: z.number() })) },
        notes_fail: { inputSchema: z.object({}), outputSchema: envelope(z.unknown()) },
        notes_sleepy: { inputSchema: z.object({}), outputSchema: envelope(z.unknown()) },
      },
    });

    const ok = single(await tools.notes_whoami.execute({}, OPTIONS));
    expect(ok).toEqual({ status: "ok", data: { actor: "u_dana", tenant: "t1" } });
    if (ok.status === "ok") expect(ok.data.actor).toBe("u_dana"); // typed: data is { actor, tenant }

    const refund = single(await tools.orders_refund.execute({ orderId: "o1", amount: 5 }, OPTIONS));
    expect(refund).toMatchObject({ status: "approval-required", approvalId: expect.stringMatching(/^apr_/) });

    const failed = (await tools.notes_fail.execute({}, OPTIONS)) as unknown as { isError: boolean; structuredContent: unknown };
    expect(failed.isError).toBe(true);
    expect(envelope(z.unknown()).parse(failed.structuredContent)).toEqual({ status: "error", error: { code: "INTERNAL_ERROR", message: "The operation failed.", retryable: false } });
    const timedOut = (await tools.notes_sleepy.execute({}, OPTIONS)) as unknown as { isError: boolean; structuredContent: unknown };
    expect(timedOut.isError).toBe(true);
    expect(envelope(z.unknown()).parse(timedOut.structuredContent)).toMatchObject({ status: "error", error: { code: "TIMEOUT", retryable: true } });
  });
});
