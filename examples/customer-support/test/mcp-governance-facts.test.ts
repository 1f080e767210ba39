// What the example's MCP endpoint tells a client about approval before any call, under
// `_meta["orpc-agent/governance"]`. `orders_refund` needs a manager only above the refund threshold (a policy on each
// call), so `requiresApproval` is false for it and `approval` says "conditional": a client must not read it as
// "never needs approval". Then the call shows what conditional means.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REFUND_APPROVAL_THRESHOLD_CENTS } from "../src/agent/governance.js";
import { createSupportRuntime } from "../src/agent/runtime.js";
import { openStorage, type Storage } from "../src/agent/storage.js";
import { createStore, type Store } from "../src/domain/store.js";
import { startMcpServer } from "../src/mcp/server.js";

const dataDir = mkdtempSync(join(tmpdir(), "orpc-agent-mcp-facts-"));
let storage: Storage;
let shutdown: () => Promise<void>;
let store: Store;
let mcp: Awaited<ReturnType<typeof startMcpServer>>;
let client: Client;

type Facts = { capabilityId: string; requiresApproval: boolean; approval: string };

describe("the example's MCP tools say when approval depends on the call", () => {
  beforeAll(async () => {
    storage = await openStorage({ dataDir, databaseUrl: "" });
    const support = createSupportRuntime(storage);
    shutdown = support.shutdown;
    store = createStore();
    mcp = await startMcpServer(support.runtime, store, 0);
    client = new Client({ name: "facts-client", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(mcp.url), { requestInit: { headers: { Authorization: "Bearer demo-token-dana" } } }));
  }, 60_000);

  afterAll(async () => {
    await client?.close();
    await mcp?.close();
    await shutdown?.();
    await storage?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("orders_refund: requiresApproval false (no static gate), approval conditional (the threshold policy)", async () => {
    const { tools } = await client.listTools();
    const facts = Object.fromEntries(tools.map((tool) => [tool.name, tool._meta?.["orpc-agent/governance"] as Facts | undefined]));
    expect(facts.orders_refund).toMatchObject({ capabilityId: "orders.refund", requiresApproval: false, approval: "conditional" });
    // No policy runs when orders are listed; a shadow policy (the profile-read trial) never stops a call.
    expect(facts.orders_list).toMatchObject({ requiresApproval: false, approval: "never" });
    expect(facts.customers_get).toMatchObject({ requiresApproval: false, approval: "never" });
  });

  it("conditional, as the calls show: at the threshold the refund runs, above it a manager must approve", async () => {
    const refund = async (amountCents: number) =>
      (await client.callTool({ name: "orders_refund", arguments: { orderId: "o_2001", amountCents, reason: "Damaged in transit" } })).structuredContent as { status: string };
    expect((await refund(REFUND_APPROVAL_THRESHOLD_CENTS + 1)).status).toBe("approval-required");
    expect((await refund(REFUND_APPROVAL_THRESHOLD_CENTS)).status).toBe("ok");
    expect(store.effects.refunds).toBe(1);
  });
});
