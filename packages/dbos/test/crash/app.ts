// The application of the crash-recovery tests, shared by the worker processes (which run the workflows) and
// the test process (which decides, resolves and wakes, as the application's server would). Every store is in
// Postgres: journal, approvals, audit and the effects themselves, so every process counts the same effects.
import { DBOS } from "@dbos-inc/dbos-sdk";
import { os as rootOs } from "@orpc/server";
import pg from "pg";
import { z } from "zod";
import { agentProcedure, createAgentRuntime, createCapabilityRegistry, defineGovernance, type Actor, type AgentInvocationInfo } from "@orpc-agent/core";
import { createInvocationService } from "@orpc-agent/core/server";
import { createDBOSCapabilitySteps } from "../../src/index.js";
import { APPROVALS_DDL, AUDIT_DDL, INVOCATIONS_DDL, createPgApprovalCoordinator, createPgAuditSink, createPgInvocationJournal, type PgQuery } from "../support/postgres.js";

export const NAMESPACE = "crash-tests";
/** Short, so a killed worker's claim lapses while the next one starts. */
export const LEASE_MS = 1_500;

const ap = agentProcedure(rootOs as unknown as Parameters<typeof agentProcedure>[0]);

export async function migrate(pool: pg.Pool): Promise<void> {
  for (const ddl of [INVOCATIONS_DDL, APPROVALS_DDL, AUDIT_DDL]) await pool.query(ddl);
  await pool.query(`create table if not exists effects (
    id bigint generated always as identity primary key, capability_id text not null, order_id text not null,
    idempotency_key text not null, correlation_id text, actor_id text not null, attributes jsonb not null,
    approver_id text, generation int not null, pid int not null)`);
}

/**
 * `generation` numbers the worker process (1 is killed, 2 recovers). In generation 1 an order id starting with
 * "hang" takes effect, prints `EFFECT <orderId>` and never settles: the process dies inside the step.
 */
export function openApp(o: { url: string; generation: number }) {
  const pool = new pg.Pool({ connectionString: o.url, max: 6 });
  pool.on("error", () => {});
  const query: PgQuery = (sql, params) => pool.query(sql, params);

  const recordEffect = async (agent: AgentInvocationInfo | undefined, orderId: string) => {
    if (agent === undefined) throw new Error("the runtime hands every governed handler its invocation info");
    await pool.query(
      `insert into effects (capability_id, order_id, idempotency_key, correlation_id, actor_id, attributes, approver_id, generation, pid)
       values ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, $9)`,
      [agent.capabilityId, orderId, agent.idempotencyKey, agent.correlationId ?? null, agent.actor.id, JSON.stringify(agent.actor.attributes ?? {}), agent.approval?.approver.id ?? null, o.generation, process.pid],
    );
    if (o.generation === 1 && orderId.startsWith("hang")) {
      process.stdout.write(`EFFECT ${orderId}\n`);
      await new Promise<never>(() => {});
    }
  };
  const write = (description: string, extra: object = {}) => ({ description, expose: { workflow: true }, sideEffect: "write" as const, risk: "medium" as const, ...extra });
  const registry = createCapabilityRegistry({
    orders: {
      reserve: ap
        .input(z.object({ orderId: z.string() }))
        .meta({ agent: write("Reserve stock for an order.") })
        .handler(async ({ input, context }) => {
          await recordEffect(context.agent, input.orderId);
          return { reserved: input.orderId };
        }),
      ship: ap
        .input(z.object({ orderId: z.string() }))
        .meta({ agent: write("Ship an order.") })
        .handler(async ({ input, context }) => {
          await recordEffect(context.agent, input.orderId);
          return { shipped: input.orderId };
        }),
      refund: ap
        .input(z.object({ orderId: z.string(), cents: z.number().int().positive() }))
        .meta({ agent: write("Refund an order.", { risk: "high", approval: { required: true, type: "human-confirmation" } }) })
        .handler(async ({ input, context }) => {
          await recordEffect(context.agent, input.orderId);
          return { refunded: input.cents };
        }),
    },
  });
  const governance = defineGovernance({ registry });
  const coordinator = createPgApprovalCoordinator({ query });
  const audit = createPgAuditSink({ query });
  const runtime = () => createAgentRuntime({ governance, approvals: { coordinator, seal: false }, audit });
  const service = createInvocationService({ journal: createPgInvocationJournal({ query }), namespace: NAMESPACE, revision: "crash-test", leaseMs: LEASE_MS });

  // The workflow's persisted initiating user; its attributes are this process's, so a resumed step shows fresh ones.
  const actor = (): Actor => ({ id: DBOS.authenticatedUser, kind: "user", attributes: { generation: String(o.generation) } });
  const base = { service, runtime, actor, context: () => ({}), approvalPollMs: 60_000 };
  const steps = {
    /** Waits for decisions and for resolutions of unknown outcomes (the defaults). */
    waiting: createDBOSCapabilitySteps(base),
    /** Returns an unknown outcome to the workflow at once. */
    typed: createDBOSCapabilitySteps({ ...base, unknown: { wait: false } }),
  };
  return { pool, service, runtime, steps, close: () => pool.end() };
}

export type App = ReturnType<typeof openApp>;
