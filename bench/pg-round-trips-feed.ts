// PostgreSQL round trips of a decision with the decision feed on (issue 48): the approver decides on one instance
// while another waits on the feed (`createPgDecisionFeed` over `pgListenFromClient`). Counted like
// pg-round-trips.ts: the deciding instance's coordinator and strict audit through their `PgQuery` seams, the
// listening instance's feed through its own, and the statements its LISTEN connection sends (LISTEN, UNLISTEN)
// through the client. The NOTIFY rides in the decide statement, so it costs no statement of its own.
//   npx tsx --tsconfig bench/tsconfig.json bench/pg-round-trips-feed.ts   (from the repository root: only this row)
import pg from "pg";
import { z } from "zod";
import { agentProcedure, createAgentRuntime, createCapabilityRegistry, defineGovernance } from "@orpc-agent/core";
import { createPgApprovalCoordinator, createPgAuditSink, createPgDecisionFeed, pgListenFromClient } from "@orpc-agent/postgres";
import { os } from "@orpc/server";
import { countingQuery } from "./counting-query.js";
import { createBenchSchema, type BenchSchema } from "./pg-database.js";
import type { RoundTripRow } from "./pg-round-trips.js";
import { openBenchDatabase } from "./pg-server.js";

const actor = { id: "bench_requester", kind: "user" as const };
const approver = { id: "bench_approver", kind: "user" as const };

const governance = () =>
  defineGovernance({
    registry: createCapabilityRegistry({
      orders: {
        refund: agentProcedure(os)
          .input(z.object({ id: z.string() }))
          .meta({ agent: { description: "Refund an order.", expose: { direct: true }, sideEffect: "write", risk: "high", approval: { required: true } } })
          .handler(({ input }) => ({ id: input.id, refunded: true })),
      },
    }),
  });

export async function decisionWithFeed(db: BenchSchema, url: string, flows: number): Promise<RoundTripRow> {
  const pool = db.pool();
  const coordinatorQuery = countingQuery(db.queryOf(pool));
  const auditQuery = countingQuery(db.queryOf(pool));
  const feedQuery = countingQuery(db.queryOf(pool));
  const sink = createPgAuditSink({ query: auditQuery.query });
  const runtime = createAgentRuntime({
    governance: governance(),
    approvals: { coordinator: createPgApprovalCoordinator({ query: coordinatorQuery.query }), seal: false },
    audit: { sinks: [sink], strict: true },
  });
  // The listening instance: its own LISTEN connection (channels are per database, not per schema), every
  // statement it sends counted.
  let listenStatements = 0;
  const listener = pgListenFromClient(() => {
    const client = new pg.Client({ connectionString: url });
    const query = client.query.bind(client) as (sql: string) => Promise<unknown>;
    return {
      connect: () => client.connect(),
      query: (sql: string) => {
        listenStatements++;
        return query(sql);
      },
      on: (event, handler) => client.on(event as "notification", handler),
      end: () => client.end(),
    };
  });
  const feed = createPgDecisionFeed({ listen: listener, query: feedQuery.query });
  const heard = new Map<string, () => void>();
  const unsubscribe = feed((id) => heard.get(id)?.());

  const totals = { coordinator: 0, audit: 0, feed: 0, listen: 0 };
  const flow = async (i: number, count: boolean) => {
    const requested = await runtime.invoke("orders.refund", { id: `o${i}` }, { actor, context: {} });
    if (requested.status !== "approval-required") throw new Error(`bench: the gated call ended ${requested.status}`);
    await runtime.drainAudit();
    const id = requested.approval.id;
    const arrived = new Promise<void>((resolve) => heard.set(id, resolve));
    const before = { coordinator: coordinatorQuery.count, audit: auditQuery.count, feed: feedQuery.count, listen: listenStatements };
    await runtime.approvals.decide(id, { status: "approved", approver });
    await runtime.drainAudit();
    // Counting stops once the other instance has heard the id: event-driven, no timer.
    await arrived;
    heard.delete(id);
    if (!count) return;
    totals.coordinator += coordinatorQuery.count - before.coordinator;
    totals.audit += auditQuery.count - before.audit;
    totals.feed += feedQuery.count - before.feed;
    totals.listen += listenStatements - before.listen;
  };
  await flow(-1, false); // warm-up; the LISTEN itself is sent here, once per subscription, not per decision
  for (let i = 0; i < flows; i++) await flow(i, true);
  unsubscribe();
  await listener.close();
  await sink.close();
  const per = (n: number) => (n / flows).toFixed(2);
  return {
    key: "pgDecisionFeed",
    flow: "decision with the feed on (decide here, heard on another instance)",
    perFlow: (totals.coordinator + totals.audit + totals.feed + totals.listen) / flows,
    detail: `${per(totals.coordinator)} coordinator + ${per(totals.audit)} audit + ${per(totals.feed)} feed + ${per(totals.listen)} LISTEN connection`,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const database = await openBenchDatabase();
  try {
    const db = await createBenchSchema(database.url);
    try {
      const row = await decisionWithFeed(db, database.url, 50);
      console.log(`${row.flow}: ${row.perFlow.toFixed(2)} round trips per decision (${row.detail}); ${database.label}`);
    } finally {
      await db.drop();
    }
  } finally {
    await database.close();
  }
}
