// SI-8 (and SI-3's bounded per-principal state) for MCP Tasks (issue 47): thousands of abandoned tasks stay bounded
// per principal and in total, one principal's flood evicts only its own tasks, and a task past its TTL answers like
// an unknown one. Through the endpoint over loopback HTTP, and at the store for the totals.
import { afterEach, describe, expect, it, vi } from "vitest";
import { createInMemoryTaskStore, type MCPTaskRecord } from "@orpc-agent/mcp";
import { closeEverythingAfterEachTest } from "../../packages/mcp/test/support/cleanup.js";
import { createTasksApp, raw, serveTasks, startTask } from "../../packages/mcp/test/tasks/tasks-app.js";

closeEverythingAfterEachTest();
afterEach(() => void vi.useRealTimers());

const record = (principal: string, taskId: string, now = Date.now()): MCPTaskRecord => ({
  taskId,
  principal,
  capabilityId: "payments.refund",
  approvalId: `apr_${taskId}`,
  phase: "awaiting",
  status: "working",
  createdAt: now,
  lastUpdatedAt: now,
  expiresAt: now + 60_000,
  version: 1,
});

describe("SI-8: abandoned tasks stay bounded", () => {
  it("SI-8: one principal's 150 abandoned tasks keep at most its share; another principal's tasks survive the flood", async () => {
    const store = createInMemoryTaskStore({ perPrincipal: 20, total: 50 });
    const app = createTasksApp();
    const { url } = await serveTasks(app, { tasks: { store, pollIntervalMs: 5 } });
    const priya = await Promise.all(Array.from({ length: 5 }, () => startTask(url, "tok-priya")));
    const dana: string[] = [];
    for (let i = 0; i < 150; i++) dana.push((await startTask(url, "tok-dana")).taskId);
    expect(store.size()).toBe(25);
    for (const { taskId } of priya) expect((await raw(url, "tok-priya", "tasks/get", { taskId })).result).toMatchObject({ status: "input_required" });
    const unknown = await raw(url, "tok-dana", "tasks/get", { taskId: "task_unknown" });
    for (const taskId of dana.slice(0, 130)) expect(await raw(url, "tok-dana", "tasks/get", { taskId })).toEqual(unknown);
    for (const taskId of dana.slice(130)) expect((await raw(url, "tok-dana", "tasks/get", { taskId })).result).toMatchObject({ status: "input_required" });
  });

  it("SI-8: 15,000 abandoned tasks of 3,000 principals stay within the default total of 10,000, the largest holders giving way", async () => {
    const store = createInMemoryTaskStore();
    const now = Date.now();
    for (let p = 0; p < 3_000; p++) for (let t = 0; t < 5; t++) await store.create(record(`p${p}`, `t${p}-${t}`, now));
    expect(store.size()).toBe(10_000);
    const present = async () => {
      let count = 0;
      for (let p = 0; p < 3_000; p++) for (let t = 0; t < 5; t++) if ((await store.get(`p${p}`, `t${p}-${t}`, now)) !== undefined) count++;
      return count;
    };
    expect(await present()).toBe(10_000);
    // One principal floods 2,000 more: it keeps at most its share (1,000 by default), its oldest giving way, and the
    // total stays put: the others give way only for the flood's own share, never for the rest of the flood.
    for (let t = 0; t < 2_000; t++) await store.create(record("flood", `f${t}`, now));
    expect(store.size()).toBe(10_000);
    expect(await store.get("flood", "f999", now)).toBeUndefined();
    expect(await store.get("flood", "f1999", now)).toBeDefined();
    const others = await present();
    expect(others).toBeGreaterThanOrEqual(9_000);
    expect(10_000 - others).toBeLessThanOrEqual(1_000);
  });

  it("SI-8: a task past its TTL answers exactly like an unknown task and is dropped", async () => {
    const store = createInMemoryTaskStore();
    const app = createTasksApp();
    const { url } = await serveTasks(app, { tasks: { store, pollIntervalMs: 5, retentionMs: 0 } });
    const { taskId, task } = await startTask(url);
    const unknown = await raw(url, "tok-dana", "tasks/get", { taskId: "task_unknown" });
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.parse(task.createdAt as string) + Number(task.ttlMs) + 1);
    expect(await raw(url, "tok-dana", "tasks/get", { taskId })).toEqual(unknown);
    expect(await raw(url, "tok-dana", "tasks/cancel", { taskId })).toEqual(await raw(url, "tok-dana", "tasks/cancel", { taskId: "task_unknown" }));
    expect(store.size()).toBe(0);
  });
});
