// The application of the consume-crash test: one approval-gated capability over Postgres approvals and a strict
// Postgres audit sink. `crashAtStarted` makes the process announce the `capability.started` write and then never
// perform it, so a parent can `kill -9` it after consumption and before the started row exists.
import type pg from "pg";
import { z } from "zod";
import { createAgentRuntime, createCapabilityRegistry, defineGovernance, type AgentAuditEvent, type AgentInvocationInfo } from "@orpc-agent/core";
import { createPgApprovalCoordinator, createPgAuditSink, pgQueryFromPool } from "../../src/index.js";
import { ap } from "../support/orpc.js";
import { tablesOf } from "./app.js";

export function openConsumeApp(o: { schema: string; pool: pg.Pool; crashAtStarted?: boolean }) {
  const t = tablesOf(o.schema);
  const query = pgQueryFromPool(o.pool);
  const registry = createCapabilityRegistry({
    orders: {
      refund: ap
        .input(z.object({ orderId: z.string(), cents: z.number().int().positive() }))
        .meta({
          agent: {
            description: "Refund an order, with a manager's approval.",
            expose: { direct: true },
            sideEffect: "write",
            risk: "high",
            approval: { required: true, type: "manager" },
          },
        })
        .handler(async ({ input, context }) => {
          const agent = (context as { agent: AgentInvocationInfo }).agent;
          await o.pool.query(
            `insert into ${t.effects} (capability_id, order_id, idempotency_key, execution_id, actor_id, attributes, input, pid)
             values ('orders.refund', $1, $2, $3, $4, '{}'::jsonb, $5::jsonb, $6)`,
            [input.orderId, agent.idempotencyKey, agent.executionId, agent.actor.id, JSON.stringify(input), process.pid],
          );
          return { refunded: input.cents };
        }),
    },
  });
  const governance = defineGovernance({ registry });
  const coordinator = createPgApprovalCoordinator({ query, table: t.approvals });
  const pgSink = createPgAuditSink({ query, table: t.audit });
  const sink = (event: AgentAuditEvent) => {
    if (o.crashAtStarted && event.type === "capability.started") {
      process.stdout.write(`STARTING ${event.data.approvalId} ${event.executionId}\n`);
      return new Promise<void>(() => {});
    }
    return pgSink(event);
  };
  const runtime = createAgentRuntime({ governance, approvals: { coordinator, seal: false }, audit: { sinks: [sink], strict: true } });
  return { runtime, coordinator, tables: t };
}
