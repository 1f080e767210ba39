import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeApprovalRequest } from "../../../../test-fixtures/approval-coordinator-contract.js";
import type { ApprovalDecision, ApprovalRecord } from "@orpc-agent/core";
import { createPgApprovalCoordinator } from "../../src/index.js";
import { applyApprovalsDdl, createTestPool, REAL_SERVER } from "../support/real-server.js";

// T8 on a real server (docs/architecture/spec/postgres.md#postgres-9-3): two coordinators, each on its own connection, race on
// one row. A third connection holds the row lock so both statements are provably waiting at
// once; the transaction belongs to the test harness only, never to the package.
const APPROVE: ApprovalDecision = { status: "approved", approver: { id: "user_manager", kind: "user" } };
const REJECT: ApprovalDecision = { status: "rejected", approver: { id: "user_auditor", kind: "user" } };

describe(`T8: compare-and-set races on a ${REAL_SERVER}`, () => {
  const table = `orpc_agent_approvals_race_${process.pid}`;
  let pool: pg.Pool;
  let clientA: pg.PoolClient;
  let clientB: pg.PoolClient;
  let gate: pg.PoolClient;
  let a: ReturnType<typeof createPgApprovalCoordinator>;
  let b: ReturnType<typeof createPgApprovalCoordinator>;
  let backendPids: number[];

  beforeAll(async () => {
    pool = createTestPool({ max: 4 });
    await pool.query(`drop table if exists ${table}`);
    await applyApprovalsDdl((sql) => pool.query(sql), table);
    clientA = await pool.connect();
    clientB = await pool.connect();
    gate = await pool.connect();
    a = createPgApprovalCoordinator({ query: (sql, params) => clientA.query(sql, params), table });
    b = createPgApprovalCoordinator({ query: (sql, params) => clientB.query(sql, params), table });
    backendPids = [];
    for (const client of [clientA, clientB]) {
      backendPids.push((await client.query("select pg_backend_pid() as pid")).rows[0].pid as number);
    }
  });

  afterAll(async () => {
    if (pool === undefined) return;
    for (const client of [clientA, clientB, gate]) client?.release();
    await pool.query(`drop table if exists ${table}`);
    await pool.end();
  });

  async function createRecord(approved: boolean): Promise<string> {
    const request = makeApprovalRequest(new Date(), { id: `apr_race_${crypto.randomUUID()}` });
    await a.create(request);
    if (approved) await a.decide(request.id, APPROVE);
    return request.id;
  }

  /** Runs both calls while the gate holds the row lock, releasing it once both backends wait on it. */
  async function gatedRace(
    id: string,
    callA: () => Promise<ApprovalRecord>,
    callB: () => Promise<ApprovalRecord>,
  ): Promise<PromiseSettledResult<ApprovalRecord>[]> {
    await gate.query("begin");
    await gate.query(`select id from ${table} where id = $1 for update`, [id]);
    const racing = Promise.allSettled([callA(), callB()]);
    const deadline = Date.now() + 10_000;
    let waiting = 0;
    while (waiting < 2) {
      if (Date.now() > deadline) throw new Error(`only ${waiting} of 2 backends reached the row lock`);
      const { rows } = await pool.query(
        "select count(*)::int as n from pg_stat_activity where pid = any($1::int[]) and wait_event_type = 'Lock'",
        [backendPids],
      );
      waiting = rows[0].n as number;
      if (waiting < 2) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await gate.query("commit");
    return racing;
  }

  function winnerOf(results: PromiseSettledResult<ApprovalRecord>[], loserMessage: RegExp): ApprovalRecord {
    const fulfilled = results.filter((r): r is PromiseFulfilledResult<ApprovalRecord> => r.status === "fulfilled");
    const rejected = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(fulfilled).toHaveLength(1);
    expect(rejected).toHaveLength(1);
    expect(String(rejected[0]!.reason)).toMatch(loserMessage);
    return fulfilled[0]!.value;
  }

  it("T8: gated markConsumed from two connections has exactly one winner, whose execution id is stored", async () => {
    const id = await createRecord(true);
    const results = await gatedRace(
      id,
      () => a.markConsumed(id, "exe_a"),
      () => b.markConsumed(id, "exe_b"),
    );
    const winner = winnerOf(results, /cannot be consumed \(status: consumed, consumed by exe_[ab]\)/);
    const stored = (await a.get(id))!;
    expect(stored.status).toBe("consumed");
    expect(["exe_a", "exe_b"]).toContain(stored.consumedByExecutionId);
    expect(stored.consumedByExecutionId).toBe(winner.consumedByExecutionId);
  });

  it("T8: gated decide (approve on one connection, reject on the other) has exactly one winner, which is stored", async () => {
    const id = await createRecord(false);
    const results = await gatedRace(
      id,
      () => a.decide(id, APPROVE),
      () => b.decide(id, REJECT),
    );
    const winner = winnerOf(results, /APPROVAL_ALREADY_DECIDED|APPROVAL_REJECTED/);
    const stored = (await b.get(id))!;
    expect(stored.status).toBe(winner.status);
    expect(stored.decision!.approver.id).toBe(winner.decision!.approver.id);
  });

  it("T8: 25 ungated markConsumed races each have exactly one winner", async () => {
    for (let i = 0; i < 25; i++) {
      const id = await createRecord(true);
      const results = await Promise.allSettled([a.markConsumed(id, `exe_a_${i}`), b.markConsumed(id, `exe_b_${i}`)]);
      const winner = winnerOf(results, /cannot be consumed/);
      expect((await a.get(id))!.consumedByExecutionId).toBe(winner.consumedByExecutionId);
    }
  });

  it("T8: 25 ungated decide races each have exactly one winner", async () => {
    for (let i = 0; i < 25; i++) {
      const id = await createRecord(false);
      const results = await Promise.allSettled([a.decide(id, APPROVE), b.decide(id, REJECT)]);
      const winner = winnerOf(results, /APPROVAL_ALREADY_DECIDED|APPROVAL_REJECTED/);
      expect((await a.get(id))!.status).toBe(winner.status);
    }
  });
});
