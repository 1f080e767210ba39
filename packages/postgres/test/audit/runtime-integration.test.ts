import type { PGlite } from "@electric-sql/pglite";
import { z } from "zod";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  createAgentRuntime,
  createCapabilityRegistry,
  defineGovernance,
  type AgentAuditEvent,
} from "@orpc-agent/core";
import { AUDIT_DDL, createPgAuditSink, type PgQuery } from "../../src/index.js";
import { ap } from "../support/orpc.js";
import { createPglite, pgliteQuery } from "../support/pglite.js";

// The sink under the real runtime (docs/architecture/spec/postgres.md#postgres-9-5): strict mode keeps audit-before-effect
// even when terminal events are batched, and best-effort failures reach onSinkError per event.
let db: PGlite;
let query: PgQuery;

beforeAll(async () => {
  db = await createPglite();
  await db.exec(AUDIT_DDL);
  query = pgliteQuery(db);
});
afterAll(async () => {
  await db?.close();
});

const actor = { id: "user_dana", kind: "user" } as const;
const handler = vi.fn();
const governance = defineGovernance({
  registry: createCapabilityRegistry({
    orders: {
      ship: ap
        .input(z.object({ orderId: z.string() }))
        .meta({ agent: { description: "Ship an order.", expose: { direct: true }, sideEffect: "write", risk: "medium" } })
        .handler(async ({ context }) => {
          handler();
          // The procedure looks for its own audit evidence before acting.
          const { rows } = await db.query<{ n: number }>(
            "select count(*)::int as n from orpc_agent_audit_events where type = 'capability.started' and execution_id = $1",
            [context.agent!.executionId],
          );
          return { startedRows: rows[0]!.n };
        }),
    },
  }),
});

describe("createPgAuditSink under createAgentRuntime", () => {
  it("T12: in strict mode with a slow batch, the procedure already finds exactly one capability.started row of its own", async () => {
    handler.mockClear();
    const sink = createPgAuditSink({ query, batch: { size: 50, flushMs: 60_000 } });
    const runtime = createAgentRuntime({ governance, audit: { sinks: [sink], strict: true } });
    const result = await runtime.invoke("orders.ship", { orderId: "ord_1" }, { actor, context: {} });
    expect(result).toMatchObject({ status: "completed", output: { startedRows: 1 } });
    expect(handler).toHaveBeenCalledTimes(1);

    // requested and completed are still buffered; the documented shutdown order writes them.
    await sink.close();
    await runtime.drainAudit();
    const { rows } = await db.query<{ type: string }>("select type from orpc_agent_audit_events where execution_id = $1", [
      result.executionId,
    ]);
    // Row order is not emission order (docs/architecture/spec/postgres.md#postgres-7-2 rule 6): compare as a set.
    expect(rows.map((r) => r.type).sort()).toEqual(["capability.completed", "capability.requested", "capability.started"]);
  });

  it("T12: in strict mode a sink whose query rejects fails the invocation with AUDIT_UNAVAILABLE and the procedure never runs", async () => {
    handler.mockClear();
    const failure = new Error("database unreachable");
    const sink = createPgAuditSink({ query: async () => Promise.reject(failure), batch: { size: 50, flushMs: 60_000 } });
    const onSinkError = vi.fn();
    const runtime = createAgentRuntime({ governance, audit: { sinks: [sink], strict: true, onSinkError } });
    const result = await runtime.invoke("orders.ship", { orderId: "ord_2" }, { actor, context: {} });
    expect(result.status).toBe("failed");
    if (result.status === "failed") {
      expect(result.error.code).toBe("AUDIT_UNAVAILABLE");
      expect(result.error.cause).toBe(failure);
    }
    expect(handler).not.toHaveBeenCalled();
    await expect(sink.close()).rejects.toBe(failure);
  });

  it("best-effort: a failing batched sink does not stop the invocation, and onSinkError gets requested, started and completed separately", async () => {
    handler.mockClear();
    const failure = new Error("relation does not exist");
    const sink = createPgAuditSink({ query: async () => Promise.reject(failure), batch: { size: 50, flushMs: 5 } });
    const reported: { error: unknown; event: AgentAuditEvent }[] = [];
    const runtime = createAgentRuntime({
      governance,
      audit: { sinks: [sink], onSinkError: (error, event) => void reported.push({ error, event }) },
    });
    const result = await runtime.invoke("orders.ship", { orderId: "ord_3" }, { actor, context: {} });
    expect(result.status).toBe("completed");
    expect(handler).toHaveBeenCalledTimes(1);

    // Every buffered promise settles within flushMs, so the drain terminates and reports the failures.
    await expect(runtime.drainAudit({ timeoutMs: 2_000 })).rejects.toMatchObject({ code: "AUDIT_UNAVAILABLE" });
    expect(reported.map((r) => r.event.type).sort()).toEqual(["capability.completed", "capability.requested", "capability.started"]);
    for (const { error, event } of reported) {
      expect(error).toBe(failure);
      expect(event.executionId).toBe(result.executionId);
    }
  });
});
