// The servers the MCP v2 benches compare, built one way for all of them: our governed endpoint's registry of 100
// tools, and the hand-written SDK v2 McpServer exposing the same tools (same zod schemas, a trivial handler
// returning the same result, the result envelope as every tool's outputSchema, issue 24).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import { allow, createCapabilityRegistry, defineGovernance, definePolicy, type AgentGovernance } from "@orpc-agent/core";
import { z } from "zod";
import { makeDefs, makeSchema } from "./fixtures.js";

export const TOOLS = 100;

export function envelopeSchema() {
  const error = z.strictObject({ code: z.string(), message: z.string(), retryable: z.boolean(), details: z.unknown().optional() });
  return z.union([
    z.strictObject({ status: z.literal("ok"), data: z.unknown() }),
    z.strictObject({ status: z.literal("approval-required"), approvalId: z.string(), message: z.string(), expiresAt: z.string(), url: z.string().optional() }),
    z.strictObject({ status: z.literal("error"), error }),
  ]);
}

export async function listen(handler: (req: never, res: never) => unknown): Promise<{ url: URL; server: Server }> {
  const server = createServer((req, res) => void handler(req as never, res as never));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`), server };
}

export function closeListening(server: Server): void {
  server.closeAllConnections();
  server.close();
}

export function toolSchemas() {
  return Array.from({ length: TOOLS }, (_, i) => makeSchema(i));
}

/** The governance our endpoint serves: the 100 tools, every one visible at discovery. */
export function benchGovernance(schemas: ReturnType<typeof toolSchemas>): AgentGovernance {
  const registry = createCapabilityRegistry(makeDefs(TOOLS, schemas));
  return defineGovernance({ registry, policies: [definePolicy("visible", () => allow(), { phases: ["discovery"] })] });
}

/** The hand-written SDK v2 server: a fresh McpServer per request, as the SDK's stateless handler builds it. */
export function handWrittenMcpHandler(schemas: ReturnType<typeof toolSchemas>) {
  const annotations = { readOnlyHint: true, openWorldHint: false };
  // Ours advertise the result envelope as outputSchema, so the hand-written ones do too.
  const outputSchema = envelopeSchema();
  return createMcpHandler(() => {
    const server = new McpServer({ name: "hand-written", version: "0.0.0" });
    for (let i = 0; i < TOOLS; i++) {
      server.registerTool(`g${i % 10}_c${i}`, { description: `Capability ${i}.`, inputSchema: schemas[i]!, outputSchema, annotations }, () => {
        const text = JSON.stringify({ status: "ok", data: { ok: true } });
        return { content: [{ type: "text" as const, text }], structuredContent: JSON.parse(text) as Record<string, unknown>, isError: false };
      });
    }
    return server;
  });
}
