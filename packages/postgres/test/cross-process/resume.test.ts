import { createHash } from "node:crypto";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RemoteExecutionResult } from "@orpc-agent/core/client";
import { createHTTPCapabilityClient } from "@orpc-agent/core/http";
import { createTestPool, createTestSchema, dropTestSchema, REAL_SERVER } from "../support/real-server.js";
import { migrate, NAMESPACE, openApp, type App } from "./app.js";
import { startServer, startWorker, type Worker } from "./spawn.js";

// Approval resume across processes through the invocation service (docs/architecture/spec/distributed.md#distributed-6, docs/architecture/spec/distributed.md#distributed-10 A1): requested
// through one server process, decided in another, resumed through a third, over Postgres approvals, journal
// and audit. Every process resolves the requester from its own request headers: fresh attributes.
const keyOf = (invocationId: string) => `inv_${createHash("sha256").update(`${NAMESPACE}\u0000${invocationId}`).digest("base64url")}`;
const as = (session: string, roles = "refunds") => ({ "x-actor": "u_dana", "x-roles": roles, "x-session": session });
const gated = (orderId: string, invocationId: string) => ({
  capabilityId: "orders.gatedRefund",
  input: { orderId, cents: 900 },
  invocationId,
  correlationId: `conv-${orderId}`,
});

describe(`cross-process approval resume on a ${REAL_SERVER}`, () => {
  let pool: pg.Pool;
  let schema: string;
  let app: App;
  let p1: Worker & { url: string };
  let p3: Worker & { url: string };
  const workers: Worker[] = [];

  beforeAll(async () => {
    pool = createTestPool({ max: 4 });
    schema = await createTestSchema(pool, "resume");
    await migrate(pool, schema);
    app = openApp({ schema, pool });
    [p1, p3] = await Promise.all([startServer({ ORPC_TEST_SCHEMA: schema }), startServer({ ORPC_TEST_SCHEMA: schema })]);
    workers.push(p1, p3);
  });
  afterAll(async () => {
    for (const worker of workers) await worker.kill("SIGTERM");
    await app?.close();
    if (pool === undefined) return;
    await dropTestSchema(pool, schema);
    await pool.end();
  });

  const effects = async (orderId: string) =>
    (
      await pool.query(
        `select idempotency_key, correlation_id, execution_id, actor_id, attributes, input, pid from ${schema}.effects where order_id = $1 order by id`,
        [orderId],
      )
    ).rows;
  const auditOf = async (executionId: string) =>
    (await pool.query(`select type, actor_id from ${schema}.orpc_agent_audit_events where execution_id = $1 order by at, id`, [executionId])).rows;
  const suspend = async (orderId: string, roles?: string) => {
    const invocationId = `inv-${crypto.randomUUID()}`;
    const requested = await createHTTPCapabilityClient({ url: p1.url, headers: as("p1", roles) }).invoke(gated(orderId, invocationId));
    if (requested.status !== "approval-required") throw new Error(`expected approval-required, got ${JSON.stringify(requested)}`);
    return { invocationId, approvalId: requested.approval.id, requested };
  };
  const decideElsewhere = async (approvalId: string, status: "approved" | "rejected") => {
    const decider = startWorker("./decide.ts", { env: { ORPC_TEST_SCHEMA: schema }, args: [approvalId, status] });
    workers.push(decider);
    await decider.waitFor(new RegExp(`^DECIDED ${approvalId} ${status}$`));
    expect(await decider.exited).toEqual({ code: 0, signal: null });
    return decider.pid;
  };

  it("A1: requested in process 1, decided in process 2, resumed in process 3: runs once, as the original requester, with the original identity and input", async () => {
    const { invocationId, approvalId, requested } = await suspend("ord-a1");
    expect(requested).toMatchObject({ replayed: false, approval: { capabilityId: "orders.gatedRefund", status: "pending", types: ["manager"] } });
    expect(await app.service.get(invocationId)).toMatchObject({ state: "pending", approvalId, fence: 1, correlationId: "conv-ord-a1" });

    const decider = await decideElsewhere(approvalId, "approved");
    expect(new Set([p1.pid, decider, p3.pid, process.pid]).size).toBe(4);

    const p3client = createHTTPCapabilityClient({ url: p3.url, headers: as("p3") });
    const done = await p3client.resume({ invocationId, approvalId });
    expect(done).toMatchObject({ status: "completed", replayed: false, invocationId, output: { refunded: 900, orderId: "ord-a1" } });
    const executionId = (done as RemoteExecutionResult & { executionId: string }).executionId;

    // Once, in process 3, as the requester with the attributes process 3 resolved now, under the original
    // effect key, correlation id and approved input.
    expect(await effects("ord-a1")).toEqual([
      {
        idempotency_key: keyOf(invocationId),
        correlation_id: "conv-ord-a1",
        execution_id: executionId,
        actor_id: "u_dana",
        attributes: { roles: ["refunds"], session: "p3" },
        input: { orderId: "ord-a1", cents: 900 },
        pid: p3.pid,
      },
    ]);
    expect(await app.coordinator.get(approvalId)).toMatchObject({ status: "consumed", consumedByExecutionId: executionId, decision: { approver: { id: "u_priya" } } });
    expect(await app.service.get(invocationId)).toMatchObject({ state: "settled", fence: 2 });
    // Process 3 drained this request's audit events before answering (docs/architecture/spec/distributed.md#distributed-7), so they are stored.
    expect(await auditOf(executionId)).toEqual([
      { type: "capability.started", actor_id: "u_dana" },
      { type: "capability.completed", actor_id: "u_dana" },
    ]);

    // The same invocation id again, through any process: the stored envelope, replayed.
    for (const url of [p3.url, p1.url]) {
      expect(await createHTTPCapabilityClient({ url, headers: as("later") }).resume({ invocationId, approvalId })).toEqual({ ...done, replayed: true });
    }
    // Another invocation id is refused: remotely exactly like an unknown approval; server-side, APPROVAL_CONSUMED.
    const other = await p3client.resume({ invocationId: `inv-${crypto.randomUUID()}`, approvalId });
    const unknown = await p3client.resume({ invocationId: `inv-${crypto.randomUUID()}`, approvalId: "apr_never_issued" });
    expect(other).toMatchObject({ status: "failed", error: { code: "INTERNAL_ERROR", retryable: false } });
    expect({ ...other, invocationId: "x" }).toEqual({ ...unknown, invocationId: "x" });
    const direct = await app.makeRuntime().resume(approvalId, { context: { tenant: "t1" } });
    expect(direct).toMatchObject({ status: "failed", error: { code: "APPROVAL_CONSUMED" } });
    expect(await effects("ord-a1")).toHaveLength(1);
  });

  it("A2: a role revoked in the fresh attributes fails POLICY_DENIED and leaves the approval unconsumed; restored, it resumes once", async () => {
    const { invocationId, approvalId } = await suspend("ord-a2");
    await app.makeRuntime().approvals.decide(approvalId, { status: "approved", approver: { id: "u_priya", kind: "user" } });
    const revoked = await createHTTPCapabilityClient({ url: p3.url, headers: as("p3", "support") }).resume({ invocationId, approvalId });
    expect(revoked).toMatchObject({ status: "failed", error: { code: "POLICY_DENIED", message: "You may no longer refund." } });
    expect(await app.coordinator.get(approvalId)).toMatchObject({ status: "approved" });
    expect(await app.service.get(invocationId)).toMatchObject({ state: "pending", approvalId });
    expect(await effects("ord-a2")).toEqual([]);

    const restored = await createHTTPCapabilityClient({ url: p1.url, headers: as("p1-again") }).resume({ invocationId, approvalId });
    expect(restored).toMatchObject({ status: "completed", output: { refunded: 900 } });
    expect(await effects("ord-a2")).toMatchObject([{ pid: p1.pid, attributes: { session: "p1-again" } }]);
  });

  it("A5: the same resume sent to processes 1 and 3 at once runs one effect; the other answers in-progress or the replay", async () => {
    const { invocationId, approvalId } = await suspend("ord-a5");
    await decideElsewhere(approvalId, "approved");
    const results = await Promise.all(
      [p1.url, p3.url, p1.url, p3.url].map((url, i) => createHTTPCapabilityClient({ url, headers: as(`race-${i}`) }).resume({ invocationId, approvalId })),
    );
    const fresh = results.filter((r) => r.status === "completed" && !r.replayed);
    expect(fresh).toHaveLength(1);
    for (const r of results) {
      if (r === fresh[0]) continue;
      expect(r.status === "completed" ? r.replayed : r.status === "outcome-unknown" && r.reason === "in-progress").toBe(true);
    }
    expect(await effects("ord-a5")).toHaveLength(1);
    expect(await app.service.get(invocationId)).toMatchObject({ state: "settled" });
  });

  it("A7: rejected in another process, the resume settles failed APPROVAL_REJECTED, replays, and nothing runs", async () => {
    const { invocationId, approvalId } = await suspend("ord-a7");
    await decideElsewhere(approvalId, "rejected");
    const rejected = await createHTTPCapabilityClient({ url: p3.url, headers: as("p3") }).resume({ invocationId, approvalId });
    expect(rejected).toMatchObject({ status: "failed", error: { code: "APPROVAL_REJECTED" } });
    expect(await createHTTPCapabilityClient({ url: p1.url, headers: as("p1") }).resume({ invocationId, approvalId })).toEqual({ ...rejected, replayed: true });
    expect(await app.service.get(invocationId)).toMatchObject({ state: "settled" });
    expect(await effects("ord-a7")).toEqual([]);
  });
});
