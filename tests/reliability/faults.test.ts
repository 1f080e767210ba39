import pg from "pg";
import { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentProcedure, createAgentRuntime, createCapabilityRegistry, defineGovernance, type AgentInvocationInfo } from "@orpc-agent/core";
import type { RemoteExecutionResult } from "@orpc-agent/core/client";
import { createInvocationService } from "@orpc-agent/core/server";
import { auditDdl, invocationsDdl } from "../../packages/postgres/src/ddl.js";
import { createPgAuditSink, createPgInvocationJournal, pgQueryFromPool } from "@orpc-agent/postgres";
import { os } from "@orpc/server";
import { dana } from "./support/app.js";

// Issue 34: connection terminations on the real server under concurrent strict-audit invokes through the
// invocation service. Whatever fails, no handler runs without its capability.started row, and no invocation id
// produces more than one effect. Bounded: a fixed number of calls and retries, well under a minute.
const url = process.env.TEST_DATABASE_URL;
// The workspace's global setup starts a server when the variable is unset, so this never skips.
if (url === undefined) throw new Error("TEST_DATABASE_URL is unset: run through the workspace (vitest.config.ts starts a server)");
const schema = `orpc_rel_faults_${process.pid}`;
const appName = `orpc_rel_faults_${process.pid}`;
const ap = agentProcedure(os);
const CONCURRENCY = 50;
const ROUNDS = 4;
const MAX_ATTEMPTS = 4;

describe("faults on a real PostgreSQL server", () => {
  let pool: pg.Pool;
  let admin: pg.Client;
  beforeAll(async () => {
    admin = new pg.Client({ connectionString: url });
    admin.on("error", () => {});
    await admin.connect();
    await admin.query(`drop schema if exists ${schema} cascade`);
    await admin.query(`create schema ${schema}`);
    await admin.query(invocationsDdl(`${schema}.invocations`));
    await admin.query(auditDdl(`${schema}.audit`));
    await admin.query(`create table ${schema}.effects (invocation_id text not null, execution_id text not null)`);
    pool = new pg.Pool({ connectionString: url, max: 10, application_name: appName });
  });
  afterAll(async () => {
    await pool?.end();
    await admin?.query(`drop schema if exists ${schema} cascade`);
    await admin?.end();
  });

  it("terminated connections under 50 concurrent strict-audit invokes: handler executions = started rows, effects ≤ 1 per invocation id", async () => {
    const started = Date.now();
    let idleErrors = 0;
    // The helper keeps terminated idle connections from crashing this process (item 2).
    const query = pgQueryFromPool(pool, { onIdleError: () => idleErrors++ });
    const executions: string[] = [];
    const registry = createCapabilityRegistry({
      refund: ap
        .input(z.object({ orderId: z.string() }))
        .meta({ agent: { description: "Refund an order.", expose: { aiSdk: true }, sideEffect: "write", risk: "medium" } })
        .handler(async ({ context }) => {
          const agent = (context as { agent: AgentInvocationInfo }).agent;
          executions.push(agent.executionId);
          await pool.query(`insert into ${schema}.effects values ($1, $2)`, [agent.invocationId, agent.executionId]);
          return { ok: true };
        }),
    });
    const sink = createPgAuditSink({ query, table: `${schema}.audit` });
    const runtime = createAgentRuntime({ governance: defineGovernance({ registry }), audit: { sinks: [sink], strict: true, onSinkError: () => {} } });
    const service = createInvocationService({ journal: createPgInvocationJournal({ query, table: `${schema}.invocations` }), namespace: "rel", revision: "r1" });

    // The fault: every 100 ms, every backend of the application pool is terminated, busy or idle.
    let terminations = 0;
    let stop = false;
    const injector = (async () => {
      while (!stop) {
        const { rows } = await admin.query("select count(pg_terminate_backend(pid))::int as n from pg_stat_activity where application_name = $1", [appName]);
        terminations += rows[0].n as number;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();

    const outcomes = new Map<string, number>();
    const count = (key: string) => outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
    /** One logical call: retried under the same invocation id while the answer is unknown or transient. */
    const call = async (invocationId: string) => {
      for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
        let result: RemoteExecutionResult;
        try {
          result = await service.invoke(runtime, "refund", { orderId: invocationId }, { actor: dana, context: {}, surface: "aiSdk", invocationId });
        } catch {
          count("threw");
          continue;
        }
        const settled = result.status === "completed" || (result.status === "failed" && !result.error.retryable);
        if (settled || attempt === MAX_ATTEMPTS) return count(result.status === "failed" ? `failed:${result.error.code}:${result.error.retryable ? "retryable" : "permanent"}` : result.status);
        count(`retried:${result.status}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    const ids: string[] = [];
    try {
      for (let round = 0; round < ROUNDS; round++) {
        const batch = Array.from({ length: CONCURRENCY }, (_, i) => `inv-${round}-${i}-${crypto.randomUUID()}`);
        ids.push(...batch);
        await Promise.all(batch.map(call));
      }
    } finally {
      stop = true;
      await injector;
    }

    const startedRows = (await admin.query(`select execution_id from ${schema}.audit where type = 'capability.started'`)).rows.map((r) => r.execution_id as string);
    const effects = (await admin.query(`select invocation_id, count(*)::int as n from ${schema}.effects group by invocation_id`)).rows as { invocation_id: string; n: number }[];
    const startedSet = new Set(startedRows);
    const withoutStarted = executions.filter((id) => !startedSet.has(id));
    const maxEffects = Math.max(0, ...effects.map((e) => e.n));
    const seconds = (Date.now() - started) / 1000;
    console.log(
      `[reliability] faults: ${ids.length} invocation ids, ${terminations} backend terminations, ${idleErrors} idle-connection errors handled, ` +
        `outcomes ${JSON.stringify(Object.fromEntries(outcomes))}; handler executions ${executions.length} = started rows ${startedRows.length}` +
        ` (executions without a started row: ${withoutStarted.length}); effects ${effects.reduce((n, e) => n + e.n, 0)}, max per invocation id ${maxEffects}; ${seconds.toFixed(1)} s`,
    );

    expect(terminations).toBeGreaterThan(0);
    expect(withoutStarted).toEqual([]);
    expect(executions.length).toBe(startedRows.length);
    expect(maxEffects).toBeLessThanOrEqual(1);
    expect(effects.every((e) => ids.includes(e.invocation_id))).toBe(true);
    expect(seconds).toBeLessThan(60);
  });
});
