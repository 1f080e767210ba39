import type { PGlite } from "@electric-sql/pglite";
import { z } from "zod";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createAgentRuntime, createCapabilityRegistry, defineGovernance } from "@orpc-agent/core";
import { createCapabilityRouter, createInProcessCapabilityClient, createInvocationService } from "@orpc-agent/core/server";
import { AUDIT_DDL, createPgAuditSink, createPgInvocationJournal, INVOCATIONS_DDL, type PgQuery } from "../../src/index.js";
import { ap } from "../support/orpc.js";
import { createPglite, pgliteQuery } from "../support/pglite.js";

// Audit draining at the server for one-runtime-per-request deployments (docs/architecture/spec/distributed.md#distributed-7, docs/architecture/spec/distributed.md#distributed-10 DR1–DR2),
// with the batched Postgres sink: a buffered terminal event settles only when its batch is written, so a
// response sent after the drain means the request's events are in the table.
const FLUSH_MS = 300;
let db: PGlite;
beforeAll(async () => {
  db = await createPglite();
  await db.exec(AUDIT_DDL);
  await db.exec(INVOCATIONS_DDL);
});
afterAll(async () => {
  await db?.close();
});

function setup(o: { drainAudit: false | { timeoutMs: number }; query?: PgQuery; flushMs?: number }) {
  const query = o.query ?? pgliteQuery(db);
  let effects = 0;
  const registry = createCapabilityRegistry({
    notes: {
      add: ap
        .input(z.object({ text: z.string() }))
        .meta({ agent: { description: "Add a note.", expose: { aiSdk: true }, sideEffect: "write", risk: "low" } })
        .handler(({ input }) => {
          effects++;
          return { added: input.text };
        }),
    },
  });
  const governance = defineGovernance({ registry });
  const sink = createPgAuditSink({ query, batch: { size: 50, flushMs: o.flushMs ?? FLUSH_MS } });
  const service = createInvocationService({ journal: createPgInvocationJournal({ query: pgliteQuery(db) }), namespace: `drain-${crypto.randomUUID()}`, revision: "r1" });
  let runtimes = 0;
  const router = createCapabilityRouter<{ actor: string }, object>({
    service,
    // One runtime per request (docs/architecture/spec/core.md#core-5): draining it drains exactly this request's events.
    runtime: () => {
      runtimes++;
      return createAgentRuntime({ governance, audit: { sinks: [sink], onSinkError: () => {} } });
    },
    surface: "aiSdk",
    resolve: async ({ context }) => ({ actor: { id: context.actor, kind: "user" }, context: {} }),
    authorize: { describe: () => true, invoke: () => true, resume: () => true, reconcile: () => true },
    drainAudit: o.drainAudit,
  });
  const client = createInProcessCapabilityClient(router, { context: { actor: "u_dana" } });
  const stored = async (executionId: string) =>
    // Sorted by type: a written-through `started` row can precede a buffered `requested` one (docs/architecture/spec/postgres.md#postgres-7-2).
    (await db.query<{ type: string }>("select type from orpc_agent_audit_events where execution_id = $1 order by type", [executionId])).rows.map((r) => r.type);
  return { client, sink, stored, effects: () => effects, runtimes: () => runtimes };
}

describe("router drainAudit over the batched Postgres sink", () => {
  it("DR1: with drainAudit the response waits until this request's buffered events are written; without it, it does not", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const drained = setup({ drainAudit: { timeoutMs: 5_000 } });
    const started = performance.now();
    const result = await drained.client.invoke({ capabilityId: "notes.add", input: { text: "a" }, invocationId: `inv-${crypto.randomUUID()}` });
    expect(result).toMatchObject({ status: "completed", output: { added: "a" } });
    const executionId = (result as { executionId: string }).executionId;
    expect(await drained.stored(executionId)).toEqual(["capability.completed", "capability.requested", "capability.started"]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(FLUSH_MS - 50);
    expect(drained.runtimes()).toBe(1);

    // A flush far beyond the request, so "not yet written" does not depend on timing.
    let startedStored!: () => void;
    const startedWrite = new Promise<void>((resolve) => (startedStored = resolve));
    const watching: PgQuery = async (sql, params) => {
      const result = await pgliteQuery(db)(sql, params);
      if (params.includes("capability.started")) startedStored();
      return result;
    };
    const undrained = setup({ drainAudit: false, flushMs: 60_000, query: watching });
    const fast = await undrained.client.invoke({ capabilityId: "notes.add", input: { text: "b" }, invocationId: `inv-${crypto.randomUUID()}` });
    const fastId = (fast as { executionId: string }).executionId;
    // Best-effort: the written-through `started` is stored (group commit sets it off after this turn); the rest stays buffered.
    await startedWrite;
    expect(await undrained.stored(fastId)).toEqual(["capability.started"]);
    await undrained.sink.flush();
    expect(await undrained.stored(fastId)).toEqual(["capability.completed", "capability.requested", "capability.started"]);
    warn.mockRestore();
  });

  it("DR2: a drain that fails (the batch insert rejects) is logged and changes neither the result nor the effect count", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const failing: PgQuery = (sql, params) =>
      /insert into orpc_agent_audit_events/.test(sql) && !params.includes("capability.started")
        ? Promise.reject(new Error("audit table unavailable"))
        : pgliteQuery(db)(sql, params);
    const app = setup({ drainAudit: { timeoutMs: 5_000 }, query: failing });
    const invocationId = `inv-${crypto.randomUUID()}`;
    const result = await app.client.invoke({ capabilityId: "notes.add", input: { text: "c" }, invocationId });
    expect(result).toMatchObject({ status: "completed", replayed: false, output: { added: "c" } });
    expect(logged.mock.calls.some((call) => String(call[0]).includes("drainAudit failed"))).toBe(true);
    expect(app.effects()).toBe(1);
    // The journal recorded the real outcome: a retry of the id replays it and runs nothing.
    expect(await app.client.invoke({ capabilityId: "notes.add", input: { text: "c" }, invocationId })).toEqual({ ...result, replayed: true });
    expect(app.effects()).toBe(1);
    logged.mockRestore();
    warn.mockRestore();
  });
});
