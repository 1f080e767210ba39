// Concurrency (issue "Reliability under load, faults and hostile input"): racing resumes of one approval on the real
// PostgreSQL server execute exactly once (SI-5, docs/architecture/spec/core.md#core-r11); 10 000 concurrent invokes with random timeouts,
// caller aborts and retries each end in exactly one envelope and one terminal audit event (SI-12).
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgentRuntime, defineGovernance, type AgentAuditEvent, type ApprovalCoordinator, type ExecutionResult } from "@orpc-agent/core";
import { APPROVALS_DDL, createPgApprovalCoordinator } from "@orpc-agent/postgres";
import { createRegistry, createTestRuntime, dana, priya, TERMINAL_EVENTS, type Counters } from "./support/app.js";

/** Set by the caller, or by the test run's own server (tests/global-setup/postgres.ts): this race never skips. */
const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;

const TRIALS = 100;
const RACERS = 50;

describe("racing resumes on the real PostgreSQL server", () => {
  const schema = `orpc_reliability_${process.pid}`;
  let admin: pg.Pool;
  let pool: pg.Pool;

  beforeAll(async () => {
    if (TEST_DATABASE_URL === undefined) throw new Error("TEST_DATABASE_URL is not set: run the tests through the root Vitest config, whose global setup starts a server");
    admin = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 1 });
    admin.on("error", () => {}); // a terminated idle backend must not become an uncaught exception
    await admin.query(`drop schema if exists ${schema} cascade`);
    await admin.query(`create schema ${schema}`);
    // The default table name, in this file's own schema: parallel test files never meet.
    pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 10, options: `-c search_path=${schema}` });
    pool.on("error", () => {});
    await pool.query(APPROVALS_DDL);
  });

  afterAll(async () => {
    await pool?.end();
    await admin?.query(`drop schema if exists ${schema} cascade`);
    await admin?.end();
  });

  it(`SI-5: ${TRIALS} trials × ${RACERS} concurrent resumes of one approval → exactly one execution per trial`, async () => {
    const pgCoordinator = createPgApprovalCoordinator({ query: (sql, params) => pool.query(sql, params) });
    // Counts the racers that passed R1–R10 and reached the atomic consume (R11): the race is real only if many do.
    let consumeAttempts = 0;
    const coordinator: ApprovalCoordinator = {
      ...pgCoordinator,
      markConsumed: (id, executionId) => {
        consumeAttempts++;
        return pgCoordinator.markConsumed(id, executionId);
      },
    };
    const counters: Counters = { executions: new Map() };
    const governance = defineGovernance({ registry: createRegistry(counters) });
    const events: AgentAuditEvent[] = [];
    // One runtime per request, as in production (docs/architecture/spec/core.md#core-5); all share the coordinator and its pool.
    const runtimeForRequest = () => createAgentRuntime({ governance, approvals: { coordinator, seal: false }, audit: (e) => void events.push(e) });
    const losers = new Map<string, number>();
    let resumes = 0;
    const started = performance.now();

    for (let trial = 0; trial < TRIALS; trial++) {
      const pending = await runtimeForRequest().invoke("orders.refund", { orderId: `o-${trial}`, amount: trial + 1 }, { actor: dana, context: {}, surface: "mcp" });
      expect(pending.status).toBe("approval-required");
      if (pending.status !== "approval-required") return;
      const approvalId = pending.approval.id;
      await runtimeForRequest().approvals.decide(approvalId, { status: "approved", approver: priya });

      const before = counters.executions.get("orders.refund") ?? 0;
      const results: ExecutionResult[] = await Promise.all(
        Array.from({ length: RACERS }, () => runtimeForRequest().resume(approvalId, { context: {}, expectedActor: dana, expectedSurface: "mcp" })),
      );
      resumes += RACERS;
      const completed = results.filter((r) => r.status === "completed");
      expect(completed, `trial ${trial}`).toHaveLength(1);
      expect(completed[0]).toMatchObject({ output: { refunded: trial + 1 } });
      expect((counters.executions.get("orders.refund") ?? 0) - before, `trial ${trial}`).toBe(1);
      for (const r of results) {
        if (r.status === "completed") continue;
        expect(r.status).toBe("failed");
        if (r.status === "failed") losers.set(r.error.code, (losers.get(r.error.code) ?? 0) + 1);
      }
      const record = await coordinator.get(approvalId);
      expect(record).toMatchObject({ status: "consumed", consumedByExecutionId: completed[0]!.executionId });
    }
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `[reliability] PostgreSQL resume race: ${TRIALS} trials × ${RACERS} resumes = ${resumes} resumes in ${seconds.toFixed(1)} s (${Math.round(resumes / seconds)}/s, pool max 10); ` +
        `exactly 1 execution per trial; ${consumeAttempts} resumes reached the atomic consume (R11); losers ${JSON.stringify(Object.fromEntries(losers))}`,
    );
    expect([...losers.keys()]).toEqual(["APPROVAL_CONSUMED"]);
    expect(losers.get("APPROVAL_CONSUMED")).toBe(TRIALS * (RACERS - 1));
    expect(consumeAttempts).toBeGreaterThan(TRIALS * 2);
    // One approval, one execution: exactly one capability.started and one completion per trial in the evidence.
    expect(events.filter((e) => e.type === "capability.started")).toHaveLength(TRIALS);
    expect(events.filter((e) => e.type === "capability.completed")).toHaveLength(TRIALS);
  });
});

describe("10 000 concurrent invokes with random timeouts, aborts and retries", () => {
  it("SI-12: exactly one envelope and one terminal audit event per execution", async () => {
    const N = 10_000;
    const { runtime, events } = createTestRuntime();
    let seed = 0x5eed;
    const random = () => {
      // xorshift32: a reproducible mix of scenarios on every run.
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return (seed >>> 0) / 2 ** 32;
    };
    type Plan = { id: string; input: unknown; abortAfterMs?: number; preAborted?: boolean; expect: (r: ExecutionResult) => boolean };
    const plans: Plan[] = Array.from({ length: N }, (): Plan => {
      const pick = random();
      const ms = Math.floor(random() * 20);
      if (pick < 0.3) return { id: "timing.wait", input: { ms }, abortAfterMs: random() < 0.5 ? Math.floor(random() * 20) : undefined, expect: (r) => r.status === "completed" || (r.status === "cancelled" && r.error.code === "CANCELLED") };
      // A 5 ms timeout: a handler that needs longer must be cut off, whatever it returns later.
      if (pick < 0.55) return { id: "timing.tight", input: { ms }, expect: (r) => (ms > 5 ? r.status === "cancelled" && r.error.code === "TIMEOUT" : r.status === "completed" || r.status === "cancelled") };
      if (pick < 0.75) return { id: "timing.flaky", input: { ms: 0, fail: true }, expect: (r) => r.status === "completed" || (r.status === "failed" && r.error.code === "EXECUTION_FAILED") };
      if (pick < 0.85) return { id: "timing.wait", input: { ms }, preAborted: true, expect: (r) => r.status === "cancelled" && r.error.code === "CANCELLED" && r.effectStatus === undefined };
      if (pick < 0.95) return { id: "notes.count", input: { n: ms }, expect: (r) => r.status === "completed" };
      return { id: "notes.fail", input: {}, expect: (r) => r.status === "failed" && r.error.code === "EXECUTION_FAILED" && !r.error.exposeToModel };
    });

    const started = performance.now();
    const envelopes = await Promise.all(
      plans.map(async (plan) => {
        const controller = new AbortController();
        if (plan.preAborted) controller.abort();
        let timer: ReturnType<typeof setTimeout> | undefined;
        if (plan.abortAfterMs !== undefined) timer = setTimeout(() => controller.abort(), plan.abortAfterMs);
        let settled = 0;
        const result = await runtime.invoke(plan.id, plan.input, { actor: dana, context: {}, signal: controller.signal }).finally(() => settled++);
        clearTimeout(timer);
        return { result, settled };
      }),
    );
    const seconds = (performance.now() - started) / 1000;

    const byExecution = new Map<string, AgentAuditEvent[]>();
    for (const event of events) {
      const list = byExecution.get(event.executionId!) ?? [];
      list.push(event);
      byExecution.set(event.executionId!, list);
    }
    const outcomes = new Map<string, number>();
    const problems: string[] = [];
    const ids = new Set<string>();
    envelopes.forEach(({ result, settled }, i) => {
      const key = result.status === "completed" ? "completed" : `${result.status} ${"error" in result ? result.error.code : ""}`;
      outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
      if (settled !== 1) problems.push(`invoke ${i} settled ${settled} times`);
      if (ids.has(result.executionId)) problems.push(`execution id ${result.executionId} reused`);
      ids.add(result.executionId);
      if (!plans[i]!.expect(result)) problems.push(`${plans[i]!.id} ${JSON.stringify(plans[i]!.input)} ended ${key}`);
      const trail = byExecution.get(result.executionId) ?? [];
      const terminal = trail.filter((e) => TERMINAL_EVENTS.has(e.type));
      if (terminal.length !== 1) {
        problems.push(`${result.executionId}: ${terminal.length} terminal events`);
        return;
      }
      const t = terminal[0]!;
      const expected = result.status === "completed" ? ["capability.completed"] : result.status === "cancelled" ? ["capability.cancelled"] : ["capability.failed", "capability.denied"];
      if (!expected.includes(t.type)) problems.push(`${result.executionId}: envelope ${result.status} but terminal event ${t.type}`);
      if ("error" in result && t.type !== "capability.denied" && (t.data as { code?: string }).code !== result.error.code) problems.push(`${result.executionId}: code differs from its event`);
      if (trail.filter((e) => e.type === "capability.requested").length !== 1) problems.push(`${result.executionId}: not exactly one capability.requested`);
      if (trail.filter((e) => e.type === "capability.started").length > 1) problems.push(`${result.executionId}: started twice`);
    });
    console.log(`[reliability] ${N} concurrent invokes (timeouts, aborts, retries) settled in ${seconds.toFixed(2)} s; outcomes ${JSON.stringify(Object.fromEntries([...outcomes].sort()))}`);
    expect(problems.slice(0, 10)).toEqual([]);
    expect(ids.size).toBe(N);
    expect(byExecution.size).toBe(N);
    // Every scenario happened: the mix is wide enough to mean something.
    for (const key of ["completed", "cancelled TIMEOUT", "cancelled CANCELLED", "failed EXECUTION_FAILED"]) expect(outcomes.get(key) ?? 0, key).toBeGreaterThan(100);
    expect(events.filter((e) => e.type === "capability.retried").length).toBeGreaterThan(100);
  });
});
