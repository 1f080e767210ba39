import type pg from "pg";
import { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  approvalProgress,
  createAgentRuntime,
  createCapabilityRegistry,
  defineGovernance,
  type AgentAuditEvent,
  type ApprovalDecision,
  type ApprovalRecord,
} from "@orpc-agent/core";
import { makeApprovalRequest } from "../../../../test-fixtures/approval-coordinator-contract.js";
import { createPgApprovalCoordinator, type PgQuery } from "../../src/index.js";
import { ap } from "../support/orpc.js";
import { applyApprovalsDdl, createTestPool, REAL_SERVER } from "../support/real-server.js";

// Quorum approvals on a real server (docs/guides/quorum-approvals.md): ten approvers, each on its own connection,
// decide one record fifty times at once. A harness connection holds the row lock until every backend waits on it,
// so the statements provably queue on one row and each re-checks its WHERE against the committed votes.
const APPROVERS = Array.from({ length: 10 }, (_, i) => ({ id: `user_approver_${i}`, kind: "user" as const }));
const REQUESTER = { id: "user_requester", kind: "user" as const };

/**
 * Approver i's statements queue here, one in flight per connection: pg 8 would queue them itself but warns that
 * doing so is deprecated (removed in pg 9), so the test orders them the way a pg 9 application must.
 */
function oneAtATime(client: pg.PoolClient): PgQuery {
  let tail: Promise<unknown> = Promise.resolve();
  return (sql, params) => {
    const run = tail.then(() => client.query(sql, params));
    tail = run.catch(() => undefined);
    return run;
  };
}

type Settled = PromiseSettledResult<ApprovalRecord>;
const fulfilledOf = (results: Settled[]) =>
  results.filter((r): r is PromiseFulfilledResult<ApprovalRecord> => r.status === "fulfilled").map((r) => r.value);
const reasonsOf = (results: Settled[]) =>
  results.filter((r): r is PromiseRejectedResult => r.status === "rejected").map((r) => String(r.reason));

describe(`SI-4: quorum approvals race on a ${REAL_SERVER}`, () => {
  const table = `orpc_agent_approvals_quorum_${process.pid}`;
  let pool: pg.Pool;
  let clients: pg.PoolClient[];
  let gate: pg.PoolClient;
  let backendPids: number[];
  let coordinators: ReturnType<typeof createPgApprovalCoordinator>[];

  beforeAll(async () => {
    pool = createTestPool({ max: 13 });
    await pool.query(`drop table if exists ${table}`);
    await applyApprovalsDdl((sql) => pool.query(sql), table);
    clients = [];
    for (let i = 0; i < APPROVERS.length; i++) clients.push(await pool.connect());
    gate = await pool.connect();
    coordinators = clients.map((client) => createPgApprovalCoordinator({ query: oneAtATime(client), table }));
    backendPids = [];
    for (const client of clients) backendPids.push((await client.query("select pg_backend_pid() as pid")).rows[0].pid as number);
  });

  afterAll(async () => {
    if (pool === undefined) return;
    for (const client of [...(clients ?? []), gate]) client?.release();
    await pool.query(`drop table if exists ${table}`);
    await pool.end();
  });

  /** Fifty decides, five per approver, each approver on its own connection; approver i's calls queue on client i. */
  function fiftyDecides(id: string, decisionOf: (i: number) => ApprovalDecision): Promise<Settled[]> {
    return Promise.allSettled(Array.from({ length: 50 }, (_, i) => coordinators[i % 10]!.decide(id, decisionOf(i))));
  }

  async function untilBackendsWait(count: number): Promise<void> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const { rows } = await pool.query(
        "select count(*)::int as n from pg_stat_activity where pid = any($1::int[]) and wait_event_type = 'Lock'",
        [backendPids],
      );
      if ((rows[0].n as number) >= count) return;
      if (Date.now() > deadline) throw new Error(`only ${rows[0].n} of ${count} backends reached the row lock`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  function expectQuorumOfThree(results: Settled[], stored: ApprovalRecord, refusals = /APPROVAL_ALREADY_DECIDED/): void {
    const fulfilled = fulfilledOf(results);
    // Exactly three calls counted a vote: two left the record pending, one approved it.
    expect(fulfilled).toHaveLength(3);
    expect(fulfilled.filter((r) => r.status === "approved")).toHaveLength(1);
    expect(fulfilled.filter((r) => r.status === "pending")).toHaveLength(2);
    for (const reason of reasonsOf(results)) expect(reason).toMatch(refusals);
    expect(stored.status).toBe("approved");
    const counted = stored.approvals!.map((vote) => vote.approver.id);
    expect(counted).toHaveLength(3);
    expect(new Set(counted).size).toBe(3);
    expect(counted.sort()).toEqual(fulfilled.map((r) => r.approvals!.at(-1)!.approver.id).sort());
    expect(stored.decision!.approver.id).toBe(fulfilled.find((r) => r.status === "approved")!.decision!.approver.id);
    expect(approvalProgress(stored).label).toBe("3 of 3 approvals");
  }

  it("SI-4: 50 gated concurrent decides by 10 approvers for a quorum of 3 count exactly 3 distinct approvers", async () => {
    const request = makeApprovalRequest(new Date(), { id: `apr_quorum_${crypto.randomUUID()}`, quorum: 3 });
    await coordinators[0]!.create(request);
    await gate.query("begin");
    await gate.query(`select id from ${table} where id = $1 for update`, [request.id]);
    const racing = fiftyDecides(request.id, (i) => ({ status: "approved", approver: APPROVERS[i % 10]! }));
    // One statement per connection is in flight at a time, so all ten backends wait on the lock at once.
    await untilBackendsWait(10);
    await gate.query("commit");
    const results = await racing;
    expectQuorumOfThree(results, (await coordinators[0]!.get(request.id))!);

    const consumptions = await Promise.allSettled(coordinators.map((c, i) => c.markConsumed(request.id, `exe_${i}`)));
    expect(fulfilledOf(consumptions)).toHaveLength(1);
    expect((await coordinators[0]!.get(request.id))!.consumedByExecutionId).toBe(fulfilledOf(consumptions)[0]!.consumedByExecutionId);
  });

  it("SI-4: 20 ungated rounds of 50 decides by 10 approvers each count exactly 3", async () => {
    for (let round = 0; round < 20; round++) {
      const request = makeApprovalRequest(new Date(), { id: `apr_quorum_${crypto.randomUUID()}`, quorum: 3 });
      await coordinators[0]!.create(request);
      const results = await fiftyDecides(request.id, (i) => ({ status: "approved", approver: APPROVERS[i % 10]! }));
      expectQuorumOfThree(results, (await coordinators[round % 10]!.get(request.id))!);
    }
  });

  it("SI-4: a rejection racing approvals either rejects the request or arrives after it is approved, never both", async () => {
    for (let round = 0; round < 10; round++) {
      const request = makeApprovalRequest(new Date(), { id: `apr_quorum_${crypto.randomUUID()}`, quorum: 3 });
      await coordinators[0]!.create(request);
      const results = await fiftyDecides(request.id, (i) =>
        i === 25 ? { status: "rejected", approver: APPROVERS[5]! } : { status: "approved", approver: APPROVERS[i % 10]! },
      );
      const stored = (await coordinators[0]!.get(request.id))!;
      const approved = fulfilledOf(results).filter((r) => r.status === "approved");
      const rejected = fulfilledOf(results).filter((r) => r.status === "rejected");
      expect(approved.length + rejected.length).toBe(1);
      expect(stored.status).toBe(approved.length === 1 ? "approved" : "rejected");
      const counted = stored.approvals!.map((vote) => vote.approver.id);
      expect(new Set(counted).size).toBe(counted.length);
      expect(counted.length).toBeLessThanOrEqual(3);
      if (stored.status === "approved") expect(counted).toHaveLength(3);
    }
  });

  it("SI-4: through the runtime, 50 concurrent decides approve once, the requester never counts, and 10 concurrent resumes execute once", async () => {
    const executions: unknown[] = [];
    const events: AgentAuditEvent[] = [];
    const governance = defineGovernance({
      registry: createCapabilityRegistry({
        payments: {
          wire: ap
            .input(z.object({ to: z.string(), amount: z.number() }))
            .meta({
              agent: {
                description: "Wire money (three approvers).",
                expose: { direct: true },
                sideEffect: "external",
                risk: "critical",
                approval: { required: true, type: "treasury", quorum: 3 },
              },
            })
            .handler(({ input }) => {
              executions.push(input);
              return { sent: input.amount };
            }),
        },
      }),
    });
    const runtime = createAgentRuntime({
      governance,
      approvals: { coordinator: coordinators[0]!, seal: false },
      audit: (event) => {
        events.push(event);
      },
    });
    // The runtime wrapper reads the record, then delegates: ten wrappers over ten connections.
    const wrappers = coordinators.map((coordinator) =>
      createAgentRuntime({ governance, approvals: { coordinator, seal: false }, audit: (event) => void events.push(event) }).approvals,
    );

    const suspended = await runtime.invoke("payments.wire", { to: "acct_1", amount: 900 }, { actor: REQUESTER, context: {}, surface: "direct" });
    expect(suspended.status).toBe("approval-required");
    if (suspended.status !== "approval-required") return;
    const id = suspended.approval.id;
    expect(suspended.approval.quorum).toBe(3);
    expect(approvalProgress(suspended.approval).label).toBe("0 of 3 approvals");

    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) =>
        // Every tenth call is the requester trying to count: refused before the coordinator is touched.
        wrappers[i % 10]!.decide(id, { status: "approved", approver: i % 10 === 9 ? REQUESTER : APPROVERS[i % 10]! }),
      ),
    );
    const stored = (await runtime.approvals.get(id))!;
    expectQuorumOfThree(results, stored, /APPROVAL_ALREADY_DECIDED|APPROVAL_SELF_APPROVAL/);
    expect(stored.approvals!.map((vote) => vote.approver.id)).not.toContain(REQUESTER.id);
    const selfRefusals = results.filter((r) => r.status === "rejected" && String((r.reason as { code?: string }).code) === "APPROVAL_SELF_APPROVAL");
    expect(selfRefusals).toHaveLength(5);
    const decisionEvents = events.filter((e) => e.type === "capability.approval_recorded" || e.type === "capability.approved");
    expect(decisionEvents.map((e) => e.type).sort()).toEqual(["capability.approval_recorded", "capability.approval_recorded", "capability.approved"]);
    expect(decisionEvents.map((e) => e.actor.id).sort()).toEqual(stored.approvals!.map((vote) => vote.approver.id).sort());

    const resumes = await Promise.all(Array.from({ length: 10 }, () => runtime.resume(id, { context: {}, expectedActor: REQUESTER, expectedSurface: "direct" })));
    expect(resumes.filter((r) => r.status === "completed")).toHaveLength(1);
    for (const result of resumes.filter((r) => r.status !== "completed")) {
      expect(result.status === "failed" && result.error.code).toBe("APPROVAL_CONSUMED");
    }
    expect(executions).toEqual([{ to: "acct_1", amount: 900 }]);
    expect((await runtime.approvals.get(id))!.status).toBe("consumed");
  });
});
