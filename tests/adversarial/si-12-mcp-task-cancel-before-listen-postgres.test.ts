// SI-12 across instances (issue 48): a tasks/cancel that reaches the instance not running the task records
// `cancelRequested` and NOTIFYs the id. A NOTIFY sent before the running instance's LISTEN is in effect (its
// connection still opening on a loaded machine, or down) is lost. The cancel, recorded in the shared store, must
// still reach the work: the running instance re-reads its task while it holds it, not only when a NOTIFY arrives or
// the handler reports progress (this handler reports once, then waits).
import { INVOCATIONS_DDL, createPgMCPTaskStore, createPgTaskCancellations, pgListenFromClient, type PgListen } from "@orpc-agent/postgres";
import type { MCPTaskRecord } from "@orpc-agent/mcp";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { approve } from "../../packages/mcp/test/approvals/approvals-app.js";
import { closeAfterTest, closeEverythingAfterEachTest } from "../../packages/mcp/test/support/cleanup.js";
import { createTasksApp, pollUntil, raw, serveTasks } from "../../packages/mcp/test/tasks/tasks-app.js";
import { TEST_DATABASE_URL, usePgSchema } from "../../packages/postgres/test/support/real-server.js";

closeEverythingAfterEachTest();

const db = usePgSchema("adv_si12_cancel_before_listen", [INVOCATIONS_DDL], { max: 8 });
const CHANNEL = `orpc_adv_si12_cancel_early_${process.pid}`;

/** An instance's `tasks` option; `held` keeps its LISTEN from starting until the test lets it (never, here). */
function tasksOption(held: boolean) {
  const connection = pgListenFromClient(() => new pg.Client({ connectionString: TEST_DATABASE_URL }), { onError: () => undefined });
  closeAfterTest(() => connection.close());
  let open!: () => void;
  const gate = held ? new Promise<void>((resolve) => (open = resolve)) : Promise.resolve();
  closeAfterTest(() => open?.());
  const listen: PgListen = async (channel, onPayload, events) => {
    await gate;
    return connection(channel, onPayload, events);
  };
  return { store: createPgMCPTaskStore<MCPTaskRecord>({ query: db.query }), pollIntervalMs: 5, runLeaseMs: 1_000, cancellations: createPgTaskCancellations({ listen, query: db.query, channel: CHANNEL }) };
}

describe("SI-12: a cross-instance cancel whose NOTIFY the running instance never heard", () => {
  it("SI-12: recorded on B while A's LISTEN is not yet in effect, the cancel still aborts the work on A", async () => {
    const app = createTasksApp();
    const a = await serveTasks(app, { tasks: tasksOption(true) });
    const b = await serveTasks(app, { tasks: tasksOption(false) });
    const taskId = (await raw(a.url, "tok-dana", "tools/call", { name: "reports_build", arguments: { pages: 2 } })).result!.taskId as string;
    const [pending] = await app.runtime.approvals.list!({ status: "pending" });
    await approve(app, pending!.id);
    expect((await raw(a.url, "tok-dana", "tasks/get", { taskId })).result).toMatchObject({ status: "working" });
    await app.started;
    expect((await raw(b.url, "tok-dana", "tasks/cancel", { taskId })).error).toBeUndefined();
    const [row] = (await db.pool().query("select record::text as record from orpc_agent_mcp_tasks where task_id = $1", [taskId])).rows;
    expect(JSON.parse(row!.record)).toMatchObject({ phase: "running", cancelRequested: true });
    // The NOTIFY is gone; A holds the task and must find the request in the store.
    const final = (await pollUntil(b.url, "tok-dana", taskId)).result!;
    expect(final).toMatchObject({ status: "cancelled", statusMessage: expect.stringMatching(/^Cancelled while running/) });
    expect(app.builds).toEqual(["started", "aborted"]);
  });
});
