// SI-12 attacks on MCP Tasks (issue 47): tasks/cancel maps to runtime cancellation. A cancel racing the resume that
// a poll starts once the approval is decided has exactly one outcome (cancelled with nothing run, or completed having
// run once), the effect status it reports is true, and a cancel during the run aborts the handler through the
// runtime's signal. Raw 2026-07-28 requests over loopback HTTP.
import { describe, expect, it } from "vitest";
import { closeEverythingAfterEachTest } from "../../packages/mcp/test/support/cleanup.js";
import { approve } from "../../packages/mcp/test/approvals/approvals-app.js";
import { createTasksApp, pollUntil, raw, serveTasks, startTask } from "../../packages/mcp/test/tasks/tasks-app.js";

closeEverythingAfterEachTest();

describe("SI-12: tasks/cancel", () => {
  it("SI-12: cancelled before the decision, then approved: the task stays cancelled, nothing runs, the approval is never consumed", async () => {
    const app = createTasksApp();
    const { url } = await serveTasks(app);
    const { taskId, approvalId } = await startTask(url);
    expect((await raw(url, "tok-dana", "tasks/cancel", { taskId })).result).toMatchObject({ resultType: "complete" });
    await approve(app, approvalId);
    for (let i = 0; i < 3; i++) {
      expect((await raw(url, "tok-dana", "tasks/get", { taskId })).result).toMatchObject({ status: "cancelled", statusMessage: "Cancelled before the approval was resumed: nothing ran." });
    }
    expect(app.executions).toEqual([]);
    expect((await app.runtime.approvals.get(approvalId))?.status).toBe("approved");
    // A second cancel is acknowledged and changes nothing.
    expect((await raw(url, "tok-dana", "tasks/cancel", { taskId })).error).toBeUndefined();
    expect((await raw(url, "tok-dana", "tasks/get", { taskId })).result).toMatchObject({ status: "cancelled" });
  });

  it("SI-12: a cancel racing the resuming poll: exactly one outcome per task, and it matches what ran", async () => {
    const app = createTasksApp();
    const { url } = await serveTasks(app);
    const tasks = await Promise.all(Array.from({ length: 12 }, () => startTask(url)));
    for (const { approvalId } of tasks) await approve(app, approvalId);
    // Each task gets a poll (which resumes it) and a cancel at once, in alternating order.
    await Promise.all(
      tasks.flatMap(({ taskId }, i) => {
        const poll = () => raw(url, "tok-dana", "tasks/get", { taskId });
        const cancel = () => raw(url, "tok-dana", "tasks/cancel", { taskId });
        return i % 2 === 0 ? [poll(), cancel()] : [cancel(), poll()];
      }),
    );
    const outcomes: string[] = [];
    for (const { taskId, approvalId } of tasks) {
      const final = (await pollUntil(url, "tok-dana", taskId)).result!;
      // Stable: polling again answers the same outcome.
      expect((await raw(url, "tok-dana", "tasks/get", { taskId })).result!.status).toBe(final.status);
      const approval = await app.runtime.approvals.get(approvalId);
      if (final.status === "completed") {
        expect(final.result).toMatchObject({ structuredContent: { status: "ok", data: { refunded: 5 } } });
        expect(approval?.status).toBe("consumed");
      } else {
        expect(final.status).toBe("cancelled");
        // Cancelled before the resume, or while running: either way the message says what happened to the effect.
        expect(final.statusMessage).toMatch(/^Cancelled before the approval was resumed: nothing ran\.$|^Cancelled while running/);
        if (final.statusMessage === "Cancelled before the approval was resumed: nothing ran.") expect(approval?.status).toBe("approved");
      }
      outcomes.push(final.status as string);
    }
    expect(app.executions).toHaveLength(outcomes.filter((status) => status === "completed").length);
    expect(outcomes).toContain("cancelled");
  });

  it("SI-12: cancelled while running: the runtime's signal aborts the handler, and the task ends cancelled saying so", async () => {
    const app = createTasksApp();
    const { url } = await serveTasks(app);
    const taskId = (await raw(url, "tok-dana", "tools/call", { name: "reports_build", arguments: { pages: 2 } })).result!.taskId as string;
    const [pending] = await app.runtime.approvals.list!({ status: "pending" });
    await approve(app, pending!.id);
    expect((await raw(url, "tok-dana", "tasks/get", { taskId })).result).toMatchObject({ status: "working" });
    await app.started;
    expect((await raw(url, "tok-dana", "tasks/cancel", { taskId })).error).toBeUndefined();
    const final = (await pollUntil(url, "tok-dana", taskId)).result!;
    expect(final).toMatchObject({ status: "cancelled", statusMessage: expect.stringMatching(/^Cancelled while running \([A-Z_]+\): /) });
    expect(app.builds).toEqual(["started", "aborted"]);
    app.release();
    expect((await raw(url, "tok-dana", "tasks/get", { taskId })).result).toMatchObject({ status: "cancelled" });
    const terminal = app.events.filter((event) => event.type === "capability.cancelled" || event.type === "capability.completed");
    expect(terminal.map((event) => event.type)).toEqual(["capability.cancelled"]);
  });

  it("SI-12: a cancel after completion changes nothing", async () => {
    const app = createTasksApp();
    const { url } = await serveTasks(app);
    const { taskId, approvalId } = await startTask(url);
    await approve(app, approvalId);
    expect((await pollUntil(url, "tok-dana", taskId)).result).toMatchObject({ status: "completed" });
    await raw(url, "tok-dana", "tasks/cancel", { taskId });
    expect((await raw(url, "tok-dana", "tasks/get", { taskId })).result).toMatchObject({ status: "completed", result: { structuredContent: { status: "ok" } } });
    expect(app.executions).toHaveLength(1);
  });
});
