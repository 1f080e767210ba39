import { z } from "zod";
import { createAgentRuntime, createCapabilityRegistry, defineGovernance, type AgentRuntime, type ExecutionResult } from "@orpc-agent/core";
import { createPgAuditSink, type PgAuditCheckpointOptions, type PgAuditSink, type PgQuery } from "../../src/index.js";
import { ap } from "./orpc.js";

export type StrictAuditedApp = {
  runtime: AgentRuntime;
  sink: PgAuditSink;
  /** Execution ids whose handler ran. */
  ran: Set<string>;
  /** Started-row counts each handler read from the table as it began (only with `lookup`). */
  seenByHandler: Map<string, number>;
  /** One call by `actorId`. */
  call(actorId?: string): Promise<ExecutionResult>;
};

/**
 * A runtime in strict audit mode over the default (unbatched) Postgres sink, with one write capability whose handler
 * records that it ran and, with `lookup`, reads its own `capability.started` row first, on another connection.
 */
export function strictAuditedApp(options: {
  query: PgQuery;
  table: string;
  chain?: boolean;
  checkpoint?: PgAuditCheckpointOptions;
  lookup?: PgQuery;
}): StrictAuditedApp {
  const ran = new Set<string>();
  const seenByHandler = new Map<string, number>();
  const { lookup, table } = options;
  const governance = defineGovernance({
    registry: createCapabilityRegistry({
      orders: {
        ship: ap
          .input(z.object({ orderId: z.string() }))
          .meta({ agent: { description: "Ship an order.", expose: { direct: true }, sideEffect: "write", risk: "medium" } })
          .handler(async ({ context }) => {
            const executionId = context.agent!.executionId;
            if (lookup !== undefined) {
              const { rows } = await lookup(`select count(*)::int as n from ${table} where type = 'capability.started' and execution_id = $1`, [executionId]);
              seenByHandler.set(executionId, Number(rows[0]!.n));
            }
            ran.add(executionId);
            return { shipped: true };
          }),
      },
    }),
  });
  const sink = createPgAuditSink({ query: options.query, table, ...(options.checkpoint === undefined ? {} : { checkpoint: options.checkpoint }) });
  const runtime = createAgentRuntime({ governance, audit: { sinks: [sink], strict: true, chain: options.chain === true, onSinkError: () => {} } });
  let n = 0;
  const call = (actorId = "user_dana") => runtime.invoke("orders.ship", { orderId: `o${++n}` }, { actor: { id: actorId, kind: "user" }, context: {} });
  return { runtime, sink, ran, seenByHandler, call };
}

/**
 * Audit before effect, checked after the fact for every call: it completed, its handler ran and its
 * `capability.started` row is stored; or it failed with AUDIT_UNAVAILABLE, its handler never ran and no such row
 * exists. Returns the calls that break it (empty when none does).
 */
export async function auditBeforeEffectBreaks(app: StrictAuditedApp, results: ExecutionResult[], read: PgQuery, table: string): Promise<string[]> {
  const { rows } = await read(`select execution_id from ${table} where type = 'capability.started'`, []);
  const stored = new Map<string, number>();
  for (const row of rows) stored.set(String(row.execution_id), (stored.get(String(row.execution_id)) ?? 0) + 1);
  const breaks: string[] = [];
  for (const result of results) {
    const id = result.executionId;
    const count = stored.get(id) ?? 0;
    const ran = app.ran.has(id);
    const ok = result.status === "completed" ? ran && count === 1 : result.status === "failed" && result.error.code === "AUDIT_UNAVAILABLE" && !ran && count === 0;
    if (!ok) breaks.push(`${id}: ${result.status}${result.status === "failed" ? ` ${result.error.code}` : ""}, ran ${ran}, started rows ${count}`);
  }
  return breaks;
}
