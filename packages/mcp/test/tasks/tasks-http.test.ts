// MCP Tasks (issue 47, SEP-2663) over loopback HTTP: a 2026-07-28 client that declares the extension gets a task
// for a call that suspends for approval, and the task completes on the server once the approver decides in the app.
// Driven by the MCP project's own tasks client (@modelcontextprotocol/ext-tasks) and by raw requests.
import { resultFromTaskOutcome } from "@modelcontextprotocol/ext-tasks/client";
import { afterEach, describe, expect, it, vi } from "vitest";
import { approvalIdOf, approve, reject } from "../approvals/approvals-app.js";
import { closeEverythingAfterEachTest } from "../support/cleanup.js";
import { agentMeta, createAgentRuntime, createCapabilityRegistry, defineGovernance } from "@orpc-agent/core";
import { createMCPHandler } from "../../src/http/create-handler.js";
import { ap } from "../support/orpc.js";
import { createInMemoryTaskStore } from "../../src/tasks/task-store.js";
import { connectTasks, createTasksApp, pollUntil, raw, REFUND_ARGS, serveTasks, startTask, TASKS_EXTENSION } from "./tasks-app.js";

closeEverythingAfterEachTest();
afterEach(() => void vi.useRealTimers());

type ToolResult = { structuredContent?: { status: string; data?: unknown; error?: { code: string } }; isError?: boolean };

describe("MCP Tasks with the ext-tasks client", () => {
  it("a gated call answers with a task in input_required carrying the approval link; approved in the app, it completes exactly once", async () => {
    const app = createTasksApp();
    const { url } = await serveTasks(app);
    const { session, inputs } = await connectTasks(url, "tok-dana", async (params) => {
      await approve(app, approvalIdOf(params.url as string));
      return "accept";
    });
    expect(session.capabilities.execution).toBe(true);
    const execution = await session.callTool("payments_refund", REFUND_ARGS);
    expect(execution.kind).toBe("task");
    const { outcome } = await execution.settle();
    const result = resultFromTaskOutcome(outcome) as ToolResult;
    expect(result.structuredContent).toEqual({ status: "ok", data: { refunded: 5 } });
    expect(result.isError).toBe(false);
    expect(app.executions).toEqual([REFUND_ARGS]);
    expect(inputs).toHaveLength(1);
    expect(inputs[0]).toMatchObject({ kind: "elicitation", params: { mode: "url", url: expect.stringMatching(/^https:\/\/approvals\.example\.test\/requests\/apr_/) } });
    expect((await app.runtime.approvals.get(approvalIdOf((inputs[0]!.params as { url: string }).url)))?.status).toBe("consumed");
  });

  it("a call that does not suspend answers immediately, as without the extension", async () => {
    const { url } = await serveTasks();
    const { session } = await connectTasks(url, "tok-dana");
    const execution = await session.callTool("orders_get", { id: "o9" });
    expect(execution.kind).toBe("immediate");
    const result = resultFromTaskOutcome((await execution.settle()).outcome) as ToolResult;
    expect(result.structuredContent).toEqual({ status: "ok", data: { id: "o9" } });
  });

  it("the server advertises the extension to 2026-07-28 clients", async () => {
    const { url } = await serveTasks();
    const { client } = await connectTasks(url, "tok-dana");
    expect(client.getServerCapabilities()?.extensions?.[TASKS_EXTENSION]).toEqual({});
  });
});

describe("MCP Tasks, raw 2026-07-28 requests", () => {
  it("the task's lifecycle: input_required → (the link answered) working → approved → completed; tasks/update decides nothing", async () => {
    const app = createTasksApp();
    const { url } = await serveTasks(app);
    const { taskId, approvalId, task } = await startTask(url);
    expect(taskId).toMatch(/^task_[A-Za-z0-9_-]{43}$/);
    expect(task).toMatchObject({ status: "input_required", pollIntervalMs: 5, ttlMs: expect.any(Number), createdAt: expect.any(String) });
    expect((task.inputRequests as Record<string, unknown>).approval).toMatchObject({ method: "elicitation/create", params: { mode: "url" } });
    expect((await raw(url, "tok-dana", "tasks/get", { taskId })).result).toMatchObject({ resultType: "complete", status: "input_required" });

    const update = await raw(url, "tok-dana", "tasks/update", { taskId, inputResponses: { approval: { action: "accept" } } });
    expect(update.error).toBeUndefined();
    expect(update.result).toMatchObject({ resultType: "complete" });
    expect(Object.keys(update.result!).filter((key) => key !== "_meta")).toEqual(["resultType"]);
    const answered = (await raw(url, "tok-dana", "tasks/get", { taskId })).result!;
    expect(answered).toMatchObject({ status: "working", statusMessage: "Awaiting the approver's decision." });
    expect(answered.inputRequests).toBeUndefined();
    expect((await app.runtime.approvals.get(approvalId))?.status).toBe("pending");
    expect(app.executions).toEqual([]);

    await approve(app, approvalId);
    const done = await pollUntil(url, "tok-dana", taskId);
    expect(done.result).toMatchObject({ status: "completed", result: { resultType: "complete", structuredContent: { status: "ok", data: { refunded: 5 } }, isError: false } });
    expect(app.executions).toEqual([REFUND_ARGS]);
    // Polling a completed task again answers the same result and runs nothing.
    expect((await raw(url, "tok-dana", "tasks/get", { taskId })).result).toMatchObject({ status: "completed" });
    expect(app.executions).toHaveLength(1);
  });

  it("without URL elicitation declared the task is working, its message saying it awaits approval", async () => {
    const app = createTasksApp();
    const { url } = await serveTasks(app);
    const { task, taskId } = await startTask(url, "tok-dana", { url: false });
    expect(task).toMatchObject({ status: "working", statusMessage: expect.stringMatching(/^Awaiting approval: .*decides it in the application/) });
    expect(task.inputRequests).toBeUndefined();
    const [pending] = await app.runtime.approvals.list!({ status: "pending" });
    await approve(app, pending!.id);
    expect((await pollUntil(url, "tok-dana", taskId)).result).toMatchObject({ status: "completed" });
  });

  it("rejected in the app: the task completes with the APPROVAL_REJECTED envelope, as the call's envelope answers today, and nothing runs", async () => {
    const app = createTasksApp();
    const { url } = await serveTasks(app);
    const { taskId, approvalId } = await startTask(url);
    await reject(app, approvalId);
    const done = await pollUntil(url, "tok-dana", taskId);
    const expected = await app.runtime.resume(approvalId, { context: {}, expectedActor: { id: "u_dana", kind: "user" }, expectedSurface: "mcp" });
    expect(expected.status).toBe("failed");
    expect(done.result).toMatchObject({ status: "completed", result: { isError: true, structuredContent: { status: "error", error: { code: "APPROVAL_REJECTED" } } } });
    expect(app.executions).toEqual([]);
  });

  it("expired before the decision: the task completes with APPROVAL_EXPIRED", async () => {
    const app = createTasksApp();
    const { url } = await serveTasks(app);
    const { taskId, task, approvalId } = await startTask(url);
    const approval = await app.runtime.approvals.get(approvalId);
    // The task outlives its approval by the retention (one hour by default), so the expiry can still be read.
    const created = Date.parse(task.createdAt as string);
    expect(created + Number(task.ttlMs)).toBe(new Date(approval!.expiresAt).getTime() + 3_600_000);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date(approval!.expiresAt).getTime() + 1_000);
    const done = await pollUntil(url, "tok-dana", taskId);
    expect(done.result).toMatchObject({ status: "completed", result: { structuredContent: { status: "error", error: { code: "APPROVAL_EXPIRED" } } } });
    expect(app.executions).toEqual([]);
  });

  it("progress of the running call reaches the client as the working task's status message; release completes it", async () => {
    const app = createTasksApp();
    const { url } = await serveTasks(app);
    const answer = await raw(url, "tok-dana", "tools/call", { name: "reports_build", arguments: { pages: 3 } });
    const taskId = answer.result!.taskId as string;
    const [pending] = await app.runtime.approvals.list!({ status: "pending" });
    await approve(app, pending!.id);
    expect((await raw(url, "tok-dana", "tasks/get", { taskId })).result).toMatchObject({ status: "working" });
    await app.started;
    let seen: Record<string, unknown> | undefined;
    for (;;) {
      seen = (await raw(url, "tok-dana", "tasks/get", { taskId })).result;
      if (seen?.statusMessage === "Running: 1/3: page 1") break;
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    expect(seen).toMatchObject({ status: "working" });
    app.release();
    expect((await pollUntil(url, "tok-dana", taskId)).result).toMatchObject({ status: "completed", result: { structuredContent: { status: "ok", data: { pages: 3 } } } });
  });

  it("a client that does not declare the extension keeps today's flow (input_required with a requestState), and task methods answer -32021", async () => {
    const { url } = await serveTasks();
    const call = await raw(url, "tok-dana", "tools/call", { name: "payments_refund", arguments: REFUND_ARGS }, { tasks: false });
    expect(call.result).toMatchObject({ resultType: "input_required", requestState: expect.any(String) });
    const { taskId } = await startTask(url);
    const get = await raw(url, "tok-dana", "tasks/get", { taskId }, { tasks: false });
    expect(get.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } } });
  });

  it("without the tasks option a declaring client gets today's answers and task methods are unknown", async () => {
    const app = createTasksApp();
    const { url } = await serveTasks(app, { tasks: undefined });
    const call = await raw(url, "tok-dana", "tools/call", { name: "payments_refund", arguments: REFUND_ARGS });
    expect(call.result).toMatchObject({ resultType: "input_required", requestState: expect.any(String) });
    expect((await raw(url, "tok-dana", "tasks/get", { taskId: "task_x" })).error?.code).toBe(-32601);
  });
});

describe("MCP Tasks across instances sharing a store", () => {
  it("a task created on one instance is polled, resumed and completed through another after the first is closed (a restart, with a shared store)", async () => {
    const app = createTasksApp();
    const store = createInMemoryTaskStore();
    const first = await serveTasks(app, { tasks: { store, pollIntervalMs: 5 } });
    const { taskId, approvalId } = await startTask(first.url);
    await first.handler.close();
    const second = await serveTasks(app, { tasks: { store, pollIntervalMs: 5 } });
    expect((await raw(second.url, "tok-dana", "tasks/get", { taskId })).result).toMatchObject({ status: "input_required" });
    await approve(app, approvalId);
    expect((await pollUntil(second.url, "tok-dana", taskId)).result).toMatchObject({ status: "completed", result: { structuredContent: { status: "ok" } } });
    expect(app.executions).toHaveLength(1);
  });
});

describe("meta.adapters.mcp.task: \"always\"", () => {
  it("answers with a working task at once; the call runs in the background, its progress in the status message, and completes; a client without the extension waits for the result as always", async () => {
    const app = createTasksApp();
    const { url } = await serveTasks(app);
    const task = (await raw(url, "tok-dana", "tools/call", { name: "exports_slow", arguments: { rows: 4 } })).result!;
    expect(task).toMatchObject({ resultType: "task", status: "working" });
    const taskId = task.taskId as string;
    let seen = (await raw(url, "tok-dana", "tasks/get", { taskId })).result!;
    while (seen.statusMessage !== "Running: 1/4: row 1") seen = (await raw(url, "tok-dana", "tasks/get", { taskId })).result!;
    expect(seen.status).toBe("working");
    const plain = raw(url, "tok-dana", "tools/call", { name: "exports_slow", arguments: { rows: 2 } }, { tasks: false });
    app.release();
    expect((await plain).result).toMatchObject({ structuredContent: { status: "ok", data: { rows: 2 } } });
    expect((await pollUntil(url, "tok-dana", taskId)).result).toMatchObject({ status: "completed", result: { resultType: "complete", structuredContent: { status: "ok", data: { rows: 4 } } } });
    expect((await raw(url, "tok-priya", "tasks/get", { taskId })).error?.message).toBe("Failed to retrieve task: Task not found");
  });

  it("an \"always\" capability that stops for approval moves its task to input_required, then completes once approved", async () => {
    const app = createTasksApp();
    const { url } = await serveTasks(app);
    const task = (await raw(url, "tok-dana", "tools/call", { name: "exports_audited", arguments: { rows: 3 } })).result!;
    expect(task).toMatchObject({ resultType: "task", status: "working" });
    const taskId = task.taskId as string;
    const asking = (await pollUntil(url, "tok-dana", taskId, ["working"])).result!;
    expect(asking).toMatchObject({ status: "input_required", inputRequests: { approval: { params: { mode: "url" } } } });
    const [pending] = await app.runtime.approvals.list!({ status: "pending" });
    await approve(app, pending!.id);
    expect((await pollUntil(url, "tok-dana", taskId)).result).toMatchObject({ status: "completed", result: { structuredContent: { status: "ok", data: { rows: 3 } } } });
  });

  it("a meta.adapters.mcp.task other than \"always\" or \"on-approval\" is refused at construction", async () => {
    const registry = createCapabilityRegistry({
      odd: { one: ap.meta(agentMeta({ description: "Odd.", expose: { mcp: true }, sideEffect: "read", risk: "low", adapters: { mcp: { task: "sometimes" } } } as never)).handler(() => ({})) },
    });
    const runtime = createAgentRuntime({ governance: defineGovernance({ registry }) });
    expect(() => createMCPHandler(runtime, { allowUnauthenticated: true, createContext: () => null, tasks: true })).toThrow(
      /meta\.adapters\.mcp\.task of "odd\.one" must be "always" or "on-approval"/,
    );
  });
});
