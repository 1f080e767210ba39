// `orders.export`, the example's streaming capability (issue 46): pages as events, progress for a caller that asks,
// the last page as the result, bounded and audited once; over the AI SDK, pages as preliminary tool results.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toAISDKTools, type AISDKToolResult } from "@orpc-agent/ai-sdk";
import type { ProgressUpdate } from "@orpc-agent/core";
import { dana, roles } from "../src/agent/people.js";
import { createSupportRuntime, type SupportRuntime } from "../src/agent/runtime.js";
import { openStorage, type Storage } from "../src/agent/storage.js";
import { createStore, type Order } from "../src/domain/store.js";

const dataDir = mkdtempSync(join(tmpdir(), "orpc-agent-export-"));
let storage: Storage;
let support: SupportRuntime;

/** A store where Ada has 5 orders, so pages of 2 make 3 pages. */
function storeWithFiveOrders() {
  const store = createStore();
  for (let n = 1; n <= 3; n++) {
    const order: Order = { id: `o_90${n}`, customerId: "c_ada", totalCents: 1_000 * n, status: "paid", items: [`Item ${n}`] };
    store.orders.set(order.id, order);
  }
  return store;
}

const contextOf = (store: ReturnType<typeof createStore>) => ({ store, user: { id: dana.id, role: roles[dana.id]! } });

describe("orders.export, a streaming capability with progress", () => {
  beforeAll(async () => {
    storage = await openStorage({ dataDir, databaseUrl: "" });
    support = createSupportRuntime(storage);
    // Opening the embedded database is slow on a busy machine.
  }, 120_000);

  afterAll(async () => {
    await support?.shutdown();
    await storage?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("is described as streaming on every surface it is exposed on", async () => {
    for (const surface of ["aiSdk", "mcp", "direct"] as const) {
      const descriptors = await support.runtime.describe(surface, { actor: dana, context: contextOf(createStore()) });
      expect(descriptors.find((d) => d.id === "orders.export")?.streaming, surface).toBe(true);
    }
  });

  it("a direct caller gets each page in order, progress up to the last order, and the last page as the result", async () => {
    const pages: unknown[] = [];
    const progress: ProgressUpdate[] = [];
    const result = await support.runtime.invoke(
      "orders.export",
      { customerId: "c_ada", pageSize: 2 },
      { actor: dana, context: contextOf(storeWithFiveOrders()), surface: "direct", onEvent: (page) => void pages.push(page), onProgress: (u) => void progress.push(u) },
    );
    expect(pages.map((p) => (p as { page: number; orders: { id: string }[] }).orders.map((o) => o.id))).toEqual([
      ["o_1001", "o_1002"],
      ["o_901", "o_902"],
      ["o_903"],
    ]);
    expect(result).toMatchObject({ status: "completed", eventCount: 3, output: { page: 3, pages: 3 } });
    expect(progress[0]).toEqual({ progress: 2, total: 5, message: "page 1 of 3" });
    expect(progress.at(-1)).toEqual({ progress: 5, total: 5, message: "page 3 of 3" });
  });

  it("refuses a page size outside 1..100 before anything runs", async () => {
    const result = await support.runtime.invoke("orders.export", { customerId: "c_ada", pageSize: 0 }, { actor: dana, context: contextOf(createStore()), surface: "direct" });
    expect(result).toMatchObject({ status: "failed", error: { code: "INPUT_INVALID" } });
  });

  it("as an AI SDK tool, each page is a preliminary { status: ok } result and the last page the final one", async () => {
    const tools = await toAISDKTools(support.runtime, { actor: dana, context: contextOf(storeWithFiveOrders()) });
    const execute = tools.orders_export!.execute as unknown as (args: unknown, options: object) => AsyncIterable<AISDKToolResult>;
    const values: AISDKToolResult[] = [];
    for await (const value of execute({ customerId: "c_ada", pageSize: 2 }, { toolCallId: "call_export", messages: [] })) values.push(value);
    expect(values.map((v) => (v.status === "ok" ? (v.data as { page: number }).page : v.status))).toEqual([1, 2, 3]);
  });
});
