// PostgreSQL round trips of a call a standing grant covers (issue 45, SI-13), counted through the `PgQuery` seam
// like the approval round trip (pg-round-trips.ts): the PostgreSQL coordinator, unsealed rows as there, strict
// PostgreSQL audit. Expected: 2 coordinator statements (the lookup and the use), plus the call's audit writes.
//   npx tsx --tsconfig bench/tsconfig.json bench/pg-round-trips-grants.ts   (from the repository root: only this row)
import { z } from "zod";
import { agentProcedure, createAgentRuntime, createCapabilityRegistry, defineGovernance } from "@orpc-agent/core";
import { createPgApprovalCoordinator, createPgAuditSink } from "@orpc-agent/postgres";
import { os } from "@orpc/server";
import { countingQuery } from "./counting-query.js";
import { createBenchSchema, type BenchSchema } from "./pg-database.js";
import type { RoundTripRow } from "./pg-round-trips.js";
import { openBenchDatabase } from "./pg-server.js";

const actor = { id: "bench_requester", kind: "user" as const };
const issuer = { id: "bench_approver", kind: "user" as const };
const MAX_USES = 1_000;

const governance = () =>
  defineGovernance({
    registry: createCapabilityRegistry({
      orders: {
        refund: agentProcedure(os)
          .input(z.object({ id: z.string(), amount: z.number() }))
          .meta({
            agent: {
              description: "Refund an order.",
              expose: { direct: true },
              sideEffect: "write",
              risk: "high",
              approval: { required: true, grants: { maxUses: MAX_USES, maxTtlMs: 3_600_000, scopes: ["actor"] } },
            },
          })
          .handler(({ input }) => ({ id: input.id, refunded: true })),
      },
    }),
  });

export async function grantCoveredCall(db: BenchSchema, calls: number): Promise<RoundTripRow> {
  if (calls + 1 > MAX_USES) throw new Error(`bench: at most ${MAX_USES - 1} grant-covered calls`);
  const pool = db.pool();
  const coordinatorQuery = countingQuery(db.queryOf(pool));
  const auditQuery = countingQuery(db.queryOf(pool));
  const coordinator = createPgApprovalCoordinator({ query: coordinatorQuery.query });
  const sink = createPgAuditSink({ query: auditQuery.query });
  const runtime = createAgentRuntime({ governance: governance(), approvals: { coordinator, seal: false }, audit: { sinks: [sink], strict: true } });
  await runtime.grants.issue({
    capabilityId: "orders.refund",
    actor,
    surface: "direct",
    issuers: [issuer],
    grant: { uses: calls + 1, ttlMs: 3_600_000, scope: "actor", conditions: [{ path: "/amount", op: "lte", value: 100 }] },
  });
  const call = async (i: number) => {
    const result = await runtime.invoke("orders.refund", { id: `o${i}`, amount: 10 }, { actor, context: {}, surface: "direct" });
    if (result.status !== "completed") throw new Error(`bench: a grant-covered call ended ${result.status}`);
  };
  await call(-1); // warm-up: connections, plans
  await runtime.drainAudit();
  coordinatorQuery.reset();
  auditQuery.reset();
  for (let i = 0; i < calls; i++) await call(i);
  // Every event of every call is stored before counting stops.
  await runtime.drainAudit();
  await sink.close();
  const per = (n: number) => n / calls;
  return {
    key: "pgGrantCovered",
    flow: "grant-covered call (no suspension)",
    perFlow: per(coordinatorQuery.count + auditQuery.count),
    detail: `${per(coordinatorQuery.count).toFixed(2)} coordinator + ${per(auditQuery.count).toFixed(2)} audit, strict audit, 1 call at a time`,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const database = await openBenchDatabase();
  try {
    const db = await createBenchSchema(database.url);
    try {
      const row = await grantCoveredCall(db, 50);
      console.log(`${row.flow}: ${row.perFlow.toFixed(2)} round trips per call (${row.detail}); ${database.label}`);
    } finally {
      await db.drop();
    }
  } finally {
    await database.close();
  }
}
