// PostgreSQL round trips per flow, counted through the `PgQuery` seam of each component (counting-query.ts):
// a strict-audited call (the default sink, and the batched sink for comparison) with 1 caller and with 100
// concurrent callers, and an approval round trip (invoke → decide → resume) with the PostgreSQL coordinator and
// strict PostgreSQL audit, a call a standing grant covers (pg-round-trips-grants.ts), and the MCP flows whose state
// lives in the database across instances: task polls and 2025-11-25 URL-elicitation retries (pg-round-trips-mcp.ts),
// and a decision heard on another instance through the decision feed (pg-round-trips-feed.ts).
// Counts, not times.
import { z } from "zod";
import { agentProcedure, createAgentRuntime, createCapabilityRegistry, defineGovernance, type AgentGovernance } from "@orpc-agent/core";
import { createPgApprovalCoordinator, createPgAuditSink } from "@orpc-agent/postgres";
import { os } from "@orpc/server";
import { countingQuery } from "./counting-query.js";
import { decisionWithFeed } from "./pg-round-trips-feed.js";
import { grantCoveredCall } from "./pg-round-trips-grants.js";
import { mcpStateRoundTrips } from "./pg-round-trips-mcp.js";
import type { BenchSchema } from "./pg-database.js";

export type RoundTripRow = { key: string; flow: string; perFlow: number; detail: string };

const base = agentProcedure(os);
const actor = { id: "bench_requester", kind: "user" as const };
const approver = { id: "bench_approver", kind: "user" as const };

const read = () =>
  base
    .input(z.object({ id: z.string() }))
    .meta({ agent: { description: "Read an order.", expose: { direct: true }, sideEffect: "read", risk: "low" } })
    .handler(({ input }) => ({ id: input.id, ok: true }));

/** The read alone, or with the gated refund the approval flow needs (a runtime with it wants a coordinator). */
function governance(gated: boolean): AgentGovernance {
  if (!gated) return defineGovernance({ registry: createCapabilityRegistry({ orders: { read: read() } }) });
  return defineGovernance({
    registry: createCapabilityRegistry({
      orders: {
        read: read(),
        refund: base
          .input(z.object({ id: z.string() }))
          .meta({ agent: { description: "Refund an order.", expose: { direct: true }, sideEffect: "write", risk: "high", approval: { required: true } } })
          .handler(({ input }) => ({ id: input.id, refunded: true })),
      },
    }),
  });
}

/** `workers` callers, each making `each` calls one after another; returns the number of calls. */
async function closedLoop(workers: number, each: number, call: () => Promise<unknown>): Promise<number> {
  await Promise.all(
    Array.from({ length: workers }, async () => {
      for (let i = 0; i < each; i++) await call();
    }),
  );
  return workers * each;
}

async function strictCall(db: BenchSchema, batched: boolean, callers: number, calls: number): Promise<RoundTripRow> {
  const pool = db.pool();
  const counted = countingQuery(db.queryOf(pool));
  const sink = createPgAuditSink(batched ? { query: counted.query, batch: { size: 50, flushMs: 250 } } : { query: counted.query });
  const runtime = createAgentRuntime({ governance: governance(false), audit: { sinks: [sink], strict: true } });
  const call = async () => {
    const result = await runtime.invoke("orders.read", { id: "o1" }, { actor, context: {} });
    if (result.status !== "completed") throw new Error(`bench: a strict-audited call ended ${result.status}`);
  };
  await closedLoop(Math.min(callers, 10), 5, call); // warm-up: connections, plans
  await runtime.drainAudit();
  await sink.flush();
  counted.reset();
  const made = await closedLoop(callers, Math.max(1, Math.round(calls / callers)), call);
  // Every event of every call is stored before counting stops: the batched sink's buffer included.
  await runtime.drainAudit();
  await sink.close();
  const sink_ = batched ? "batched sink" : "default sink";
  return {
    key: `pgStrict${batched ? "Batched" : ""}${callers}`,
    flow: `strict-audited call, ${sink_}, ${callers} caller${callers === 1 ? "" : "s"}`,
    perFlow: counted.count / made,
    detail: `${counted.count} INSERTs for ${made} calls (3 events each)`,
  };
}

async function approvalRoundTrip(db: BenchSchema, flows: number): Promise<RoundTripRow[]> {
  const pool = db.pool();
  const coordinatorQuery = countingQuery(db.queryOf(pool));
  const auditQuery = countingQuery(db.queryOf(pool));
  const coordinator = createPgApprovalCoordinator({ query: coordinatorQuery.query });
  const sink = createPgAuditSink({ query: auditQuery.query });
  const runtime = createAgentRuntime({ governance: governance(true), approvals: { coordinator, seal: false }, audit: { sinks: [sink], strict: true } });
  const steps = { invoke: [0, 0], decide: [0, 0], resume: [0, 0] } as Record<"invoke" | "decide" | "resume", [number, number]>;
  const step = async <T>(name: keyof typeof steps, run: () => Promise<T>): Promise<T> => {
    await runtime.drainAudit();
    const [c0, a0] = [coordinatorQuery.count, auditQuery.count];
    const value = await run();
    // The step's best-effort events are written before the next step starts, so each is counted with its step.
    await runtime.drainAudit();
    steps[name][0] += coordinatorQuery.count - c0;
    steps[name][1] += auditQuery.count - a0;
    return value;
  };
  const flow = async (i: number) => {
    const requested = await step("invoke", () => runtime.invoke("orders.refund", { id: `o${i}` }, { actor, context: {} }));
    if (requested.status !== "approval-required") throw new Error(`bench: the gated call ended ${requested.status}`);
    await step("decide", () => runtime.approvals.decide(requested.approval.id, { status: "approved", approver }));
    const resumed = await step("resume", () => runtime.resume(requested.approval.id, { context: {} }));
    if (resumed.status !== "completed") throw new Error(`bench: the resumed call ended ${resumed.status}`);
  };
  await flow(-1); // warm-up
  for (const counts of Object.values(steps)) counts.fill(0);
  for (let i = 0; i < flows; i++) await flow(i);
  await sink.close();
  const per = (n: number) => n / flows;
  const rows: RoundTripRow[] = [];
  let coordinatorTotal = 0;
  let auditTotal = 0;
  for (const [name, [coordinatorCount, auditCount]] of Object.entries(steps)) {
    coordinatorTotal += coordinatorCount;
    auditTotal += auditCount;
    rows.push({
      key: `pgApproval${name[0]!.toUpperCase()}${name.slice(1)}`,
      flow: `approval round trip: ${name}`,
      perFlow: per(coordinatorCount + auditCount),
      detail: `${per(coordinatorCount).toFixed(2)} coordinator + ${per(auditCount).toFixed(2)} audit`,
    });
  }
  rows.push({
    key: "pgApprovalTrip",
    flow: "approval round trip: invoke, decide, resume",
    perFlow: per(coordinatorTotal + auditTotal),
    detail: `${per(coordinatorTotal).toFixed(2)} coordinator + ${per(auditTotal).toFixed(2)} audit, strict audit, 1 flow at a time`,
  });
  return rows;
}

export async function pgRoundTrips(db: BenchSchema, options: { calls: number; flows: number; url: string }): Promise<RoundTripRow[]> {
  const rows: RoundTripRow[] = [];
  for (const batched of [false, true]) {
    for (const callers of [1, 100]) {
      await db.truncate();
      rows.push(await strictCall(db, batched, callers, callers === 1 ? Math.min(options.calls, 300) : options.calls));
    }
  }
  await db.truncate();
  rows.push(...(await approvalRoundTrip(db, options.flows)));
  await db.truncate();
  rows.push(await grantCoveredCall(db, options.flows));
  await db.truncate();
  rows.push(...(await mcpStateRoundTrips(db, options.flows)));
  await db.truncate();
  rows.push(await decisionWithFeed(db, options.url, options.flows));
  return rows;
}
