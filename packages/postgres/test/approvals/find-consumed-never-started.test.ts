// The recovery list's time bound on the real server: when a consumed record counts as possibly still running, from
// the consumption instant `markConsumed` stores and the capability's recorded timeout and retries; and which audit
// rows end an execution (before its procedure) or show that its procedure ran.
import type { ApprovalRequest } from "@orpc-agent/core";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contractClock, makeApprovalRequest } from "../../../../test-fixtures/approval-coordinator-contract.js";
import { APPROVALS_DDL, AUDIT_DDL, createPgApprovalCoordinator, findConsumedNeverStarted, type PgQuery } from "../../src/index.js";
import { createTestPool, createTestSchema, dropTestSchema, REAL_SERVER, testSchemaName } from "../support/real-server.js";

const MANAGER = { id: "user_manager", kind: "user" } as const;
const MARGIN = 60_000;
const CORE_POLICY_TIMEOUT = 5_000;

describe(`findConsumedNeverStarted on a ${REAL_SERVER}`, () => {
  let pool: pg.Pool;
  let query: PgQuery;
  const clock = contractClock("2030-01-01T00:00:00.000Z");

  beforeAll(async () => {
    const admin = createTestPool({ max: 1 });
    await createTestSchema(admin, "recovery_bound");
    await admin.end();
    pool = createTestPool({ max: 2, searchPath: testSchemaName("recovery_bound") });
    await pool.query(APPROVALS_DDL);
    await pool.query(AUDIT_DDL);
    query = (sql, params) => pool.query(sql, params as unknown[]);
  });
  afterAll(async () => {
    if (pool === undefined) return;
    await dropTestSchema(pool, testSchemaName("recovery_bound"));
    await pool.end();
  });

  /** A record approved and consumed at the clock's current instant, by `exe_<id>`. */
  async function consumed(overrides: Partial<ApprovalRequest> = {}) {
    const coordinator = createPgApprovalCoordinator({ query, now: clock.now });
    const request = { ...makeApprovalRequest(clock.now), ...overrides } as ApprovalRequest;
    await coordinator.create(request);
    await coordinator.decide(request.id, { status: "approved", approver: MANAGER });
    await coordinator.markConsumed(request.id, `exe_${request.id}`);
    return { id: request.id, executionId: `exe_${request.id}`, at: clock.now() };
  }

  const auditRow = (executionId: string, type: string, data: object) =>
    pool.query(
      `insert into orpc_agent_audit_events (type, at, surface, actor_id, actor_kind, execution_id, data) values ($1, now(), 'direct', 'u', 'user', $2, $3::jsonb)`,
      [type, executionId, JSON.stringify(data)],
    );

  const all = (now: Date) => findConsumedNeverStarted({ query, includePossiblyRunning: true, now: () => now });
  const find = async (id: string, now: Date) => (await all(now)).find((r) => r.id === id);

  it("markConsumed stores the coordinator's instant; the bound is the policy batch, every attempt, the backoffs and the margin", async () => {
    clock.advance(1_000);
    const definition = { capability: { id: "orders.refund", timeoutMs: 2_000, retry: { maxAttempts: 2, backoffMs: 100, retryOn: false } }, policies: [] };
    const { id, executionId, at } = await consumed({ definition });
    const found = await find(id, at);
    // 5 s of execution policies, 3 attempts of 2 s, backoffs of 100 and 200 ms, then the margin.
    const bound = CORE_POLICY_TIMEOUT + 3 * 2_000 + 300 + MARGIN;
    expect(found).toMatchObject({ consumedByExecutionId: executionId, consumedAt: at, possiblyRunning: true });
    expect(found!.possiblyRunningUntil!.getTime() - at.getTime()).toBe(bound);

    // Left out by default until the bound has passed, listed unflagged from then on.
    const listed = async (now: number) => (await findConsumedNeverStarted({ query, now: () => new Date(now) })).map((r) => r.id);
    expect(await listed(at.getTime() + bound - 1)).not.toContain(id);
    expect(await listed(at.getTime() + bound)).toContain(id);
    expect(await find(id, new Date(at.getTime() + bound))).toMatchObject({ possiblyRunning: false });
  });

  it("without a recorded timeout, the runtime's defaults count, with one attempt; marginMs replaces the margin", async () => {
    clock.advance(1_000);
    const { id, at } = await consumed();
    const found = (await findConsumedNeverStarted({ query, includePossiblyRunning: true, now: () => at, defaults: { timeoutMs: 10_000, policyTimeoutMs: 1_000 }, marginMs: 500 })).find((r) => r.id === id);
    expect(found!.possiblyRunningUntil!.getTime() - at.getTime()).toBe(1_000 + 10_000 + 500);
    expect((await find(id, at))!.possiblyRunningUntil!.getTime() - at.getTime()).toBe(CORE_POLICY_TIMEOUT + 30_000 + MARGIN);
  });

  it("a record consumed before consumed_at existed counts from its expiry, the latest it can have been consumed", async () => {
    clock.advance(1_000);
    const { id } = await consumed();
    await pool.query("update orpc_agent_approvals set consumed_at = null where id = $1", [id]);
    const record = (await find(id, clock.now()))!;
    expect(record.consumedAt).toBeUndefined();
    expect(record.possiblyRunningUntil!.getTime() - record.expiresAt.getTime()).toBe(CORE_POLICY_TIMEOUT + 30_000 + MARGIN);
    expect(record.possiblyRunning).toBe(true);
  });

  it("an execution that ended before its procedure (denied, failed at 0 attempts, cancelled without effect) is listed at once", async () => {
    clock.advance(1_000);
    const denied = await consumed();
    await auditRow(denied.executionId, "capability.denied", { reason: "policy-denied", publicCode: "POLICY_DENIED" });
    const failed = await consumed();
    await auditRow(failed.executionId, "capability.failed", { code: "AUDIT_UNAVAILABLE", retryable: true, attempts: 0 });
    const cancelled = await consumed();
    await auditRow(cancelled.executionId, "capability.cancelled", { code: "CANCELLED", durationMs: 3 });
    const listed = await findConsumedNeverStarted({ query, now: clock.now });
    for (const { id } of [denied, failed, cancelled]) {
      expect(listed.find((r) => r.id === id)).toMatchObject({ possiblyRunning: false, possiblyRunningUntil: undefined });
    }
  });

  it("an execution whose procedure ran is never listed, even with its started row missing", async () => {
    clock.advance(1_000);
    const rows: [string, object][] = [
      ["capability.completed", { durationMs: 4, attempts: 1 }],
      ["capability.retried", { attempt: 2, previousErrorCode: "TIMEOUT" }],
      ["capability.failed", { code: "INTERNAL_ERROR", retryable: false, attempts: 1, effectStatus: "unknown" }],
      ["capability.failed", { code: "INTERNAL_ERROR", retryable: false }],
      ["capability.cancelled", { code: "TIMEOUT", durationMs: 30_000, effectStatus: "unknown" }],
    ];
    const ids: string[] = [];
    for (const [type, data] of rows) {
      const { id, executionId } = await consumed();
      await auditRow(executionId, type, data);
      ids.push(id);
    }
    const listed = (await all(new Date(clock.now().getTime() + 365 * 86_400_000))).map((r) => r.id);
    for (const id of ids) expect(listed).not.toContain(id);
  });

  it("a bound too large for a Date stays a valid instant", async () => {
    clock.advance(1_000);
    const definition = { capability: { id: "orders.refund", timeoutMs: 2_000, retry: { maxAttempts: 5_000, retryOn: false } }, policies: [] };
    const { id, at } = await consumed({ definition });
    const found = (await find(id, at))!;
    expect(Number.isNaN(found.possiblyRunningUntil!.getTime())).toBe(false);
    expect(found.possiblyRunning).toBe(true);
  });

  it("rejects malformed options with a TypeError", async () => {
    await expect(findConsumedNeverStarted({ query, includePossiblyRunning: "yes" as never })).rejects.toThrow(/includePossiblyRunning must be a boolean/);
    await expect(findConsumedNeverStarted({ query, marginMs: -1 })).rejects.toThrow(/marginMs must be a finite number >= 0/);
    await expect(findConsumedNeverStarted({ query, marginMs: Number.NaN })).rejects.toThrow(TypeError);
    await expect(findConsumedNeverStarted({ query, defaults: { timeoutMs: 0 } })).rejects.toThrow(/defaults.timeoutMs must be a finite number > 0/);
    await expect(findConsumedNeverStarted({ query, defaults: { policyTimeoutMs: Infinity } })).rejects.toThrow(/defaults.policyTimeoutMs/);
    await expect(findConsumedNeverStarted({ query, defaults: 5 as never })).rejects.toThrow(TypeError);
    await expect(findConsumedNeverStarted({ query, now: "now" as never })).rejects.toThrow(/now must be a function/);
  });
});
