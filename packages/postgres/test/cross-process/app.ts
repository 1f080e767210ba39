// The application every cross-process test runs: the same registry, policies and Postgres stores in each
// server process, the deciding process and the test process (which observes and resolves, as the
// application would). Effects are rows in a table, so every process counts the same effects.
import pg from "pg";
import { z } from "zod";
import {
  allow,
  createAgentRuntime,
  createCapabilityRegistry,
  defineGovernance,
  definePolicy,
  deny,
  type AgentInvocationInfo,
  type AgentRuntime,
} from "@orpc-agent/core";
import { createInvocationService, type InvocationService } from "@orpc-agent/core/server";
import { approvalsDdl, auditDdl, invocationsDdl } from "../../src/ddl.js";
import { createPgApprovalCoordinator, createPgAuditSink, createPgInvocationJournal, type PgAuditSink, type PgQuery } from "../../src/index.js";
import { ap } from "../support/orpc.js";

export const NAMESPACE = "shop";
export const LEASE_MS = 30_000;
export type AppContext = { tenant: string };

/** The tables of one test file, all in its own schema. */
export function tablesOf(schema: string) {
  return {
    invocations: `${schema}.orpc_agent_invocations`,
    approvals: `${schema}.orpc_agent_approvals`,
    audit: `${schema}.orpc_agent_audit_events`,
    effects: `${schema}.effects`,
  };
}

/** Creates every table of the schema, as the application's migration would. */
export async function migrate(pool: pg.Pool, schema: string): Promise<void> {
  const t = tablesOf(schema);
  await pool.query(invocationsDdl(t.invocations));
  await pool.query(approvalsDdl(t.approvals));
  await pool.query(auditDdl(t.audit));
  await pool.query(`create table if not exists ${t.effects} (
    id bigint generated always as identity primary key, capability_id text not null, order_id text not null,
    idempotency_key text not null, correlation_id text, execution_id text not null, actor_id text not null,
    attributes jsonb not null, input jsonb not null, pid int not null)`);
}

/** What a handler does after entering: by order id, so the input (and its fingerprint) stays the same across processes. */
export type HangPlan = { beforeEffect?: string; afterEffect?: string };

const never = () => new Promise<never>(() => {});

export function openApp(o: { schema: string; clockOffsetMs?: number; hang?: HangPlan; pool?: pg.Pool; batchFlushMs?: number }) {
  const t = tablesOf(o.schema);
  const pool = o.pool ?? new pg.Pool({ connectionString: process.env.TEST_DATABASE_URL, max: 8 });
  if (o.pool === undefined) pool.on("error", () => {}); // a terminated idle backend must not crash the child
  const query: PgQuery = (sql, params) => pool.query(sql, params);
  const offset = o.clockOffsetMs ?? 0;
  // One clock for the runtime, the coordinator, the journal and the service; tests shift it to observe lapses.
  const now = () => new Date(Date.now() + offset);
  const hang = o.hang ?? {};

  /** The effect: one row, with everything the runtime handed the handler. */
  const recordEffect = async (capabilityId: string, input: { orderId: string }, agent: AgentInvocationInfo) => {
    await pool.query(
      `insert into ${t.effects} (capability_id, order_id, idempotency_key, correlation_id, execution_id, actor_id, attributes, input, pid)
       values ($1, $2, $3, $4, $5, $6, $7::jsonb, $8::jsonb, $9)`,
      [
        capabilityId,
        input.orderId,
        agent.idempotencyKey,
        agent.correlationId ?? null,
        agent.executionId,
        agent.actor.id,
        JSON.stringify(agent.actor.attributes ?? {}),
        JSON.stringify(input),
        process.pid,
      ],
    );
  };
  const mark = (line: string) => process.stdout.write(`${line}\n`);

  const refundInput = z.object({ orderId: z.string(), cents: z.number().int().positive() });
  const registry = createCapabilityRegistry({
    orders: {
      refund: ap
        .input(refundInput)
        .meta({ agent: { description: "Refund an order.", expose: { aiSdk: true }, sideEffect: "write", risk: "high" } })
        .handler(async ({ input, context }) => {
          const agent = (context as { agent: AgentInvocationInfo }).agent;
          if (hang.beforeEffect === input.orderId) {
            mark(`ENTERED ${input.orderId}`);
            return never();
          }
          await recordEffect("orders.refund", input, agent);
          if (hang.afterEffect === input.orderId) {
            mark(`EFFECT ${input.orderId}`);
            return never();
          }
          return { refunded: input.cents, orderId: input.orderId };
        }),
      gatedRefund: ap
        .input(refundInput)
        .meta({
          agent: {
            description: "Refund an order, with a manager's approval.",
            expose: { aiSdk: true },
            sideEffect: "write",
            risk: "high",
            approval: { required: true, type: "manager" },
          },
        })
        .handler(async ({ input, context }) => {
          await recordEffect("orders.gatedRefund", input, (context as { agent: AgentInvocationInfo }).agent);
          return { refunded: input.cents, orderId: input.orderId };
        }),
    },
  });
  // A current invocation policy over the requester's fresh attributes (docs/architecture/spec/core.md#core-r10).
  const refundsRole = definePolicy("refunds-role", (req) =>
    ((req.actor.attributes?.roles as string[] | undefined) ?? []).includes("refunds") ? allow() : deny("ROLE_REVOKED", "You may no longer refund."),
  );
  const governance = defineGovernance({ registry, policies: [refundsRole] });

  const coordinator = createPgApprovalCoordinator({ query, table: t.approvals, now });
  const journal = createPgInvocationJournal({ query, table: t.invocations, now });
  const sink: PgAuditSink = createPgAuditSink({ query, table: t.audit, batch: { size: 50, flushMs: o.batchFlushMs ?? 100 } });
  const service: InvocationService = createInvocationService({ journal, namespace: NAMESPACE, revision: "r1", leaseMs: LEASE_MS, now });
  /** One runtime per request (docs/architecture/spec/core.md#core-5); they share the module-scoped stores and sink. */
  const makeRuntime = (): AgentRuntime<AppContext> =>
    createAgentRuntime<AppContext>({ governance, now, approvals: { coordinator, seal: false }, audit: { sinks: [sink] } });

  const close = async () => {
    await sink.close();
    if (o.pool === undefined) await pool.end();
  };
  return { pool, tables: t, now, registry, coordinator, journal, sink, service, makeRuntime, close };
}
export type App = ReturnType<typeof openApp>;
