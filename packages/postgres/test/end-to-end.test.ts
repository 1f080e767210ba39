import type { PGlite } from "@electric-sql/pglite";
import type pg from "pg";
import { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgentRuntime, createCapabilityRegistry, defineGovernance } from "@orpc-agent/core";
import { APPROVALS_DDL, AUDIT_DDL, createPgApprovalCoordinator, createPgAuditSink, type PgQuery } from "../src/index.js";
import { ap } from "./support/orpc.js";
import { createPglite, pgliteQuery } from "./support/pglite.js";
import {
  applyApprovalsDdl,
  applyAuditDdl,
  createTestPool,
  createTestSchema,
  dropTestSchema,
  REAL_SERVER,
} from "./support/real-server.js";

// The whole flow over one database with a real core runtime: approval-required, a decision,
// a restart (new runtime, coordinator and sink objects), resume, and a payload-free audit trail.
const SENTINEL = "SENTINEL-payload-4c1d9e";
const requester = { id: "user_requester", kind: "user", displayName: "Requester", attributes: { team: SENTINEL } } as const;
const manager = { id: "user_manager", kind: "user" } as const;

const governance = defineGovernance({
  registry: createCapabilityRegistry({
    payments: {
      transfer: ap
        .input(z.object({ to: z.string(), memo: z.string(), amount: z.number() }))
        .meta({
          agent: {
            description: "Transfer money.",
            expose: { mcp: true },
            sideEffect: "external",
            risk: "critical",
            approval: { required: true },
          },
        })
        .handler(({ input }) => ({ transferred: input.amount, receipt: `${input.memo}/receipt` })),
    },
  }),
});

type Tables = { approvals: string; audit: string };

/** Boots what one process would: a coordinator, a sink and a runtime over the shared database. */
function boot(query: PgQuery, tables: Tables) {
  const coordinator = createPgApprovalCoordinator({ query, table: tables.approvals });
  const sink = createPgAuditSink({ query, table: tables.audit, batch: { size: 20, flushMs: 50 } });
  const runtime = createAgentRuntime({ governance, approvals: { coordinator, seal: false }, audit: { sinks: [sink], strict: true } });
  return { runtime, sink };
}

/** The documented shutdown order: drain the runtime, then close the sink. */
async function shutdown({ runtime, sink }: ReturnType<typeof boot>) {
  await runtime.drainAudit();
  await sink.close();
}

function endToEnd(getQuery: () => PgQuery, getTables: () => Tables) {
  it("approval-required → decide → restart → resume, with a durable, payload-free audit trail", async () => {
    const query = getQuery();
    const tables = getTables();
    const input = { to: "acct_42", memo: SENTINEL, amount: 250 };

    const first = boot(query, tables);
    const pending = await first.runtime.invoke("payments.transfer", input, {
      actor: requester,
      context: {},
      surface: "mcp",
      correlationId: "corr_e2e",
    });
    expect(pending.status).toBe("approval-required");
    if (pending.status !== "approval-required") return;
    const approvalId = pending.approval.id;
    await first.runtime.approvals.decide(approvalId, { status: "approved", approver: manager, comment: "fine" });
    await shutdown(first);

    // A restarted process: every object is new, only the database is shared.
    const second = boot(query, tables);
    const resumed = await second.runtime.resume(approvalId, { context: {}, expectedSurface: "mcp" });
    expect(resumed).toMatchObject({ status: "completed", output: { transferred: 250, receipt: `${SENTINEL}/receipt` } });
    const replay = await second.runtime.resume(approvalId, { context: {} });
    expect(replay.status === "failed" && replay.error.code).toBe("APPROVAL_CONSUMED");
    await shutdown(second);

    const { rows } = await query(
      `select type, actor_id, actor_kind, surface, execution_id, capability_id, correlation_id, input_hash, data::text as data
         from ${tables.audit} order by at, id`,
      [],
    );
    const types = rows.map((row) => row.type);
    for (const type of [
      "capability.requested",
      "capability.approval_requested",
      "capability.approved",
      "capability.started",
      "capability.completed",
      "capability.failed",
    ]) {
      expect(types).toContain(type);
    }
    const byType = (type: string) => rows.filter((row) => row.type === type);
    const record = (await createPgApprovalCoordinator({ query, table: tables.approvals }).get(approvalId))!;
    expect(record.status).toBe("consumed");
    expect(record.consumedByExecutionId).toBe(resumed.executionId);

    expect(byType("capability.requested")[0]).toMatchObject({
      actor_id: "user_requester",
      actor_kind: "user",
      surface: "mcp",
      execution_id: pending.executionId,
      capability_id: "payments.transfer",
      correlation_id: "corr_e2e",
    });
    expect(JSON.parse(byType("capability.approval_requested")[0]!.data as string)).toMatchObject({ approvalId });
    // The decision is recorded under the approver, without an execution id (docs/architecture/spec/core.md#core-10).
    expect(byType("capability.approved")[0]).toMatchObject({ actor_id: "user_manager", execution_id: null });
    const started = byType("capability.started");
    expect(started).toHaveLength(1);
    expect(started[0]).toMatchObject({ execution_id: resumed.executionId, input_hash: record.inputHash });
    expect(JSON.parse(started[0]!.data as string)).toEqual({ attempt: 1, approvalId });
    expect(byType("capability.completed")[0]).toMatchObject({ execution_id: resumed.executionId });

    // SI-10: the sentinel reached the approvals table (so this check can fail) but no audit row.
    const inApprovals = await query(`select count(*)::int as n from ${tables.approvals} a where a::text like $1`, [`%${SENTINEL}%`]);
    expect(inApprovals.rows[0]!.n).toBe(1);
    const inAudit = await query(`select count(*)::int as n from ${tables.audit} e where e::text like $1`, [`%${SENTINEL}%`]);
    expect(inAudit.rows[0]!.n).toBe(0);
  });
}

describe("end to end over PGlite", () => {
  let db: PGlite;
  beforeAll(async () => {
    db = await createPglite();
    await db.exec(APPROVALS_DDL);
    await db.exec(AUDIT_DDL);
  });
  afterAll(async () => {
    await db?.close();
  });
  endToEnd(
    () => pgliteQuery(db),
    () => ({ approvals: "orpc_agent_approvals", audit: "orpc_agent_audit_events" }),
  );
});

describe(`end to end over a ${REAL_SERVER}`, () => {
  let pool: pg.Pool;
  let schema: string;
  beforeAll(async () => {
    pool = createTestPool();
    schema = await createTestSchema(pool, "e2e");
    await applyApprovalsDdl((sql) => pool.query(sql), `${schema}.approvals`);
    await applyAuditDdl((sql) => pool.query(sql), `${schema}.audit_events`);
  });
  afterAll(async () => {
    if (pool === undefined) return;
    await dropTestSchema(pool, schema);
    await pool.end();
  });
  endToEnd(
    () => (sql, params) => pool.query(sql, params),
    () => ({ approvals: `${schema}.approvals`, audit: `${schema}.audit_events` }),
  );
});
