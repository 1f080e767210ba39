import type pg from "pg";
import { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgentRuntime, createCapabilityRegistry, defineGovernance, type AgentInvocationInfo } from "@orpc-agent/core";
import { createInvocationService, invocationIdempotencyKey } from "@orpc-agent/core/server";
import { createPgInvocationJournal, pgQueryFromPool } from "../../src/index.js";
import { invocationsDdl } from "../../src/ddl.js";
import { ap } from "../support/orpc.js";
import { createTestPool, createTestSchema, dropTestSchema, REAL_SERVER } from "../support/real-server.js";

// Issue 34 item 5: after a lapsed lease, an operator matches the `unknown` journal row to the domain's own record
// by the invocation id and the effect key the handler received; the lease is the service's `leaseMs`.
const LEASE_MS = 1_000;
const dana = { id: "u_dana", kind: "user" } as const;

describe(`recovery link between the journal and the domain on a ${REAL_SERVER}`, () => {
  let pool: pg.Pool;
  let schema: string;
  let release: () => void = () => {};
  beforeAll(async () => {
    pool = createTestPool({ max: 6 });
    schema = await createTestSchema(pool, "recovery_link");
    await pool.query(invocationsDdl(`${schema}.orpc_agent_invocations`));
    await pool.query(`create table ${schema}.refunds (order_id text primary key, invocation_id text, idempotency_key text not null)`);
  });
  afterAll(async () => {
    release();
    await dropTestSchema(pool, schema);
    await pool.end();
  });

  /** One process's view: its journal and service on its own clock, over the shared table. */
  function boot(clockOffsetMs: number) {
    const query = pgQueryFromPool(pool);
    const now = () => new Date(Date.now() + clockOffsetMs);
    const journal = createPgInvocationJournal({ query, table: `${schema}.orpc_agent_invocations`, now });
    return createInvocationService({ journal, namespace: "shop", revision: "r1", leaseMs: LEASE_MS, now });
  }

  it("ctx.agent carries the invocation id; the unknown row reports the same effect key; the lease is leaseMs", async () => {
    const gate = new Promise<void>((resolve) => (release = resolve));
    const registry = createCapabilityRegistry({
      refund: ap
        .input(z.object({ orderId: z.string() }))
        .meta({ agent: { description: "Refund.", expose: { mcp: true }, sideEffect: "write", risk: "high" } })
        .handler(async ({ input, context }) => {
          const agent = (context as { agent: AgentInvocationInfo }).agent;
          await pool.query(`insert into ${schema}.refunds values ($1, $2, $3)`, [input.orderId, agent.invocationId ?? null, agent.idempotencyKey]);
          // The worker stalls after the effect: to everyone else it looks like a dead process.
          await gate;
          return { refunded: input.orderId };
        }),
    });
    const runtime = createAgentRuntime({ governance: defineGovernance({ registry }), audit: () => {} });
    const worker = boot(0);
    const later = boot(LEASE_MS * 5);
    const invocationId = `inv-${crypto.randomUUID()}`;

    const running = worker.invoke(runtime, "refund", { orderId: "ord-1" }, { actor: dana, context: {}, surface: "mcp", invocationId });
    await expect.poll(async () => (await pool.query(`select 1 from ${schema}.refunds`)).rowCount, { timeout: 5_000 }).toBe(1);

    // During the lease: claimed, with an expiry within leaseMs.
    const claimed = await worker.reconcile(invocationId, { actor: dana, surface: "mcp" });
    expect(claimed).toMatchObject({ state: "claimed" });
    const leaseEnds = Date.parse((claimed as { leaseExpiresAt: string }).leaseExpiresAt);
    expect(leaseEnds - Date.now()).toBeLessThanOrEqual(LEASE_MS);

    // Past it: unknown, and the operator's listing names the effect key the handler received.
    expect(await later.reconcile(invocationId, { actor: dana, surface: "mcp" })).toMatchObject({ state: "unknown", reason: "lease-lapsed" });
    const [row] = await later.list({ state: "unknown" });
    const key = await invocationIdempotencyKey("shop", invocationId);
    expect(row).toMatchObject({ invocationId, state: "unknown", idempotencyKey: key });
    expect((await later.get(invocationId))?.idempotencyKey).toBe(key);
    const { rows: domain } = await pool.query(`select order_id, invocation_id from ${schema}.refunds where idempotency_key = $1`, [row!.idempotencyKey]);
    expect(domain).toEqual([{ order_id: "ord-1", invocation_id: invocationId }]);

    // The operator records what the domain says; the stalled worker's late settlement cannot overwrite it.
    await later.resolve(invocationId, { expectedFence: row!.fence, by: { id: "ops_sam", kind: "user" }, resolution: { kind: "applied", output: { refunded: "ord-1" } } });
    release();
    await running;
    expect(await later.get(invocationId)).toMatchObject({ state: "settled", resolution: { kind: "applied", by: { id: "ops_sam" } } });
    expect((await pool.query(`select 1 from ${schema}.refunds`)).rowCount).toBe(1);
  });

  it("rejects a lease that is not a positive finite number", () => {
    const journal = createPgInvocationJournal({ query: pgQueryFromPool(pool), table: `${schema}.orpc_agent_invocations` });
    expect(() => createInvocationService({ journal, namespace: "shop", revision: "r1", leaseMs: 0 })).toThrow(TypeError);
  });
});
