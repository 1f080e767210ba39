import { readFileSync } from "node:fs";
import type pg from "pg";
import { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentProcedure, createAgentRuntime, createCapabilityRegistry, defineGovernance, type Actor } from "@orpc-agent/core";
import { createCapabilityRouter, createInvocationService } from "@orpc-agent/core/server";
import {
  APPROVALS_DDL,
  AUDIT_DDL,
  INVOCATIONS_DDL,
  createPgApprovalCoordinator,
  createPgAuditSink,
  createPgInvocationJournal,
  pgQueryFromPool,
} from "../../src/index.js";
import { os } from "../support/orpc.js";
import { createTestPool, dropTestSchema, REAL_SERVER, testSchemaName } from "../support/real-server.js";

// The README's invocation-journal section: its DDL block is INVOCATIONS_DDL, and its example runs here
// verbatim (the lines between the region markers appear, in order, in the README).
const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
const thisFile = readFileSync(new URL(import.meta.url), "utf8");
const normalize = (text: string) =>
  text
    .split("\n")
    .map((line) => line.trim().replace(/\s+/g, " "))
    .filter((line) => line !== "");

describe("README: invocation journal", () => {
  it("shows INVOCATIONS_DDL verbatim", () => {
    expect(normalize(readme).join("\n")).toContain(normalize(INVOCATIONS_DDL).join("\n"));
  });

  it("shows the code this test runs", () => {
    const start = thisFile.lastIndexOf("// #region journal example");
    const end = thisFile.lastIndexOf("// #endregion journal example");
    expect(start).toBeGreaterThan(0);
    const region = normalize(thisFile.slice(thisFile.indexOf("\n", start) + 1, end));
    expect(region.length).toBeGreaterThan(40);
    expect(normalize(readme).join("\n")).toContain(region.join("\n"));
  });
});

describe(`README journal example on a ${REAL_SERVER}`, () => {
  const schema = testSchemaName("journal_readme");
  let admin: pg.Pool;
  beforeAll(async () => {
    // The README reads its seal secret from the environment; a test-only one stands in here.
    process.env.APPROVAL_SEAL_SECRET ??= "test-only-seal-secret-at-least-32-bytes-long";
    admin = createTestPool({ max: 1 });
    await admin.query(`drop schema if exists ${schema} cascade`);
    await admin.query(`create schema ${schema}`);
  });
  afterAll(async () => {
    if (admin === undefined) return;
    await dropTestSchema(admin, schema);
    await admin.end();
  });

  it("runs: approval-required, decide, resume, replay, resolve sweep", async () => {
    // The README connects with DATABASE_URL; the test points the default table names at this file's schema.
    const pool = createTestPool({ searchPath: schema });
    // A claim whose worker died long ago, for the operations sweep to find (lapsed on any clock).
    await pool.query(INVOCATIONS_DDL);
    await pool.query(
      `insert into orpc_agent_invocations (namespace, invocation_id, fingerprint, capability_id, surface, actor_id, actor_kind, state, fence,
         lease_expires_at, created_at, updated_at)
       values ('shop', 'inv-dead-worker', 'fp', 'orders.refund', 'aiSdk', 'user_dana', 'user', 'claimed', 1, $1, $1, $1)`,
      ["2001-01-01T00:00:00.000Z"],
    );

    // #region journal example
    const query = pgQueryFromPool(pool); // also attaches the pool's "error" listener: see "Connections"
    await pool.query(APPROVALS_DDL);
    await pool.query(AUDIT_DDL);
    await pool.query(INVOCATIONS_DDL);

    const ap = agentProcedure(os);
    const registry = createCapabilityRegistry({
      orders: {
        refund: ap
          .input(z.object({ orderId: z.string(), amount: z.number() }))
          .meta({
            agent: {
              description: "Refund an order.",
              expose: { aiSdk: true },
              sideEffect: "write",
              risk: "high",
              approval: { required: true },
            },
          })
          .handler(({ input }) => ({ refunded: input.amount })),
      },
    });
    const governance = defineGovernance({ registry });

    // Module scope: one clock for every store, the journal, the service and the audit sink.
    const now = () => new Date();
    const coordinator = createPgApprovalCoordinator({ query, now });
    const sink = createPgAuditSink({ query, batch: { size: 50, flushMs: 250 } });
    const journal = createPgInvocationJournal({ query, now });
    const service = createInvocationService({ journal, namespace: "shop", revision: "2026-06-01", now });
    // Per request: a runtime.
    const makeRuntime = () => createAgentRuntime({ governance, now, approvals: { coordinator, seal: { keys: [{ id: "2026-12", secret: process.env.APPROVAL_SEAL_SECRET! }] } }, audit: { sinks: [sink] } });

    // Remote callers reach the service through the capability router; mount it in your RPCHandler.
    const agent = createCapabilityRouter<{ userId?: string }, object>({
      service,
      runtime: makeRuntime,
      surface: "aiSdk",
      resolve: async ({ context }) => (context.userId ? { actor: { id: context.userId, kind: "user" }, context: {} } : null),
      authorize: { describe: () => true, invoke: () => true, resume: () => true, reconcile: () => true },
      drainAudit: { timeoutMs: 5_000 },
    });

    // The same calls in process: the client picks the invocation id; the server fixes everything else.
    const dana: Actor = { id: "user_dana", kind: "user" };
    const invocationId = crypto.randomUUID();
    const call = { actor: dana, context: {}, surface: "aiSdk" as const, invocationId };
    const first = await service.invoke(makeRuntime(), "orders.refund", { orderId: "ord_1", amount: 25 }, call);
    if (first.status !== "approval-required") throw new Error(`expected approval-required, got ${first.status}`);

    // Any process: a manager decides, and the requester resumes with the same invocation id.
    await makeRuntime().approvals.decide(first.approval.id, { status: "approved", approver: { id: "user_priya", kind: "user" } });
    const done = await service.resume(makeRuntime(), first.approval.id, call);
    // done.status === "completed"; the same resume again replays it (replayed: true) and runs nothing.
    const again = await service.resume(makeRuntime(), first.approval.id, call);

    // Operations: a worker that died mid-call leaves its row "unknown" once the lease lapsed. Check your
    // domain by the idempotency key, then tell the journal what happened; nothing re-runs on its own.
    for (const record of await service.list({ state: "unknown" })) {
      await service.resolve(record.invocationId, {
        expectedFence: record.fence,
        by: { id: "ops_oncall", kind: "user" },
        resolution: { kind: "not-applied" }, // or { kind: "applied", output } / { kind: "failed" }
      });
    }

    await sink.close();
    await pool.end();
    // #endregion journal example

    expect(typeof agent.invoke).toBe("object");
    expect(done).toMatchObject({ status: "completed", replayed: false, output: { refunded: 25 } });
    expect(again).toEqual({ ...done, replayed: true });
    const rows = await admin.query(`select invocation_id, state, fence::int as fence from ${schema}.orpc_agent_invocations order by invocation_id`);
    expect(rows.rows).toEqual(
      [
        { invocation_id: invocationId, state: "settled", fence: 2 },
        { invocation_id: "inv-dead-worker", state: "pending", fence: 1 },
      ].sort((a, b) => (a.invocation_id < b.invocation_id ? -1 : 1)),
    );
    const audit = await admin.query(`select type from ${schema}.orpc_agent_audit_events`);
    expect(audit.rows.map((r: { type: string }) => r.type)).toContain("capability.completed");
  });
});
