import { createHash } from "node:crypto";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@orpc-agent/core";
import { createHTTPCapabilityClient } from "@orpc-agent/core/http";
import { InvocationNotResolvableError } from "@orpc-agent/core/server";
import { createTestPool, createTestSchema, dropTestSchema, REAL_SERVER } from "../support/real-server.js";
import { LEASE_MS, migrate, NAMESPACE, openApp, type App } from "./app.js";
import { startServer, type Worker } from "./spawn.js";

// Crash faults with real processes (docs/architecture/spec/distributed.md#distributed-5-2, docs/architecture/spec/distributed.md#distributed-8, docs/architecture/spec/distributed.md#distributed-10 F1; D-3, D-4): a server process is killed
// with SIGKILL inside its handler, before or after the effect, at the moment it says so on stdout. Effects
// are rows, so every process counts the same ones. Lapse is observed through injected clock offsets, never
// by waiting for a lease.
const dana: Actor = { id: "u_dana", kind: "user", attributes: { roles: ["refunds"] } };
const headers = { "x-actor": "u_dana", "x-roles": "refunds", "x-session": "s1" };
const PAST_LEASE_MS = LEASE_MS + 1_000;
const keyOf = (invocationId: string) => `inv_${createHash("sha256").update(`${NAMESPACE}\u0000${invocationId}`).digest("base64url")}`;

describe(`D-4: crash faults across processes on a ${REAL_SERVER}`, () => {
  let pool: pg.Pool;
  let schema: string;
  /** The application in this process, on the real clock and on a clock past every lease. */
  let now: App;
  let later: App;
  const workers: Worker[] = [];

  beforeAll(async () => {
    pool = createTestPool({ max: 4 });
    schema = await createTestSchema(pool, "faults");
    await migrate(pool, schema);
    now = openApp({ schema, pool });
    later = openApp({ schema, pool, clockOffsetMs: PAST_LEASE_MS });
  });
  afterAll(async () => {
    for (const worker of workers) await worker.kill("SIGTERM");
    await now?.close();
    await later?.close();
    if (pool === undefined) return;
    await dropTestSchema(pool, schema);
    await pool.end();
  });

  const effects = async (orderId: string) =>
    (await pool.query(`select idempotency_key, actor_id, pid from ${schema}.effects where order_id = $1 order by id`, [orderId])).rows as {
      idempotency_key: string;
      actor_id: string;
      pid: number;
    }[];
  const server = async (env: Record<string, string> = {}) => {
    const worker = await startServer({ ORPC_TEST_SCHEMA: schema, ...env });
    workers.push(worker);
    return { worker, client: createHTTPCapabilityClient({ url: worker.url, headers }) };
  };
  const refund = (orderId: string, invocationId: string) => ({ capabilityId: "orders.refund", input: { orderId, cents: 100 }, invocationId });

  /** The shared witnesses: a server process on the real clock and one whose clock is past every lease the doomed ones took. */
  let current: Awaited<ReturnType<typeof server>>;
  let lapsed: Awaited<ReturnType<typeof server>>;
  beforeAll(async () => {
    [current, lapsed] = await Promise.all([server(), server({ CLOCK_OFFSET_MS: String(PAST_LEASE_MS) })]);
  });
  const ops = { id: "u_ops", kind: "user" } as const;

  /** Starts a server that hangs on `orderId` at `where`, invokes it there, and SIGKILLs it at the printed marker. */
  async function killMidInvocation(orderId: string, where: "before" | "after") {
    const invocationId = `inv-${where}-${crypto.randomUUID()}`;
    const doomed = await server(where === "before" ? { HANG_BEFORE_EFFECT: orderId } : { HANG_AFTER_EFFECT: orderId });
    const pending = doomed.client.invoke(refund(orderId, invocationId));
    await doomed.worker.waitFor(where === "before" ? new RegExp(`^ENTERED ${orderId}$`) : new RegExp(`^EFFECT ${orderId}$`));
    expect(await doomed.worker.kill("SIGKILL")).toEqual({ code: null, signal: "SIGKILL" });
    // The caller cannot know what happened: the connection died after the request left.
    expect(await pending).toMatchObject({ status: "outcome-unknown", reason: "transport", invocationId });
    return { invocationId, pid: doomed.worker.pid };
  }

  /** What every observer reports for a dead worker's claim, before and after its lease; and that nothing re-runs. */
  async function expectClaimedThenLapsed(invocationId: string, orderId: string, effectCount: number) {
    // Before the lease ends: claimed, to this process and to another server process; a retry is in-progress.
    const seen = await now.service.reconcile(invocationId, { actor: dana, surface: "aiSdk" });
    expect(seen).toMatchObject({ state: "claimed" });
    const leaseEnds = Date.parse((seen as { leaseExpiresAt: string }).leaseExpiresAt);
    expect(leaseEnds).toBeGreaterThan(Date.now());
    expect(leaseEnds).toBeLessThanOrEqual(Date.now() + LEASE_MS);
    expect(await current.client.reconcile({ invocationId })).toMatchObject({ state: "claimed" });
    expect(await current.client.invoke(refund(orderId, invocationId))).toMatchObject({ status: "outcome-unknown", reason: "in-progress" });
    // A live claim may still settle, so the application cannot resolve it yet.
    await expect(now.service.resolve(invocationId, { expectedFence: 1, by: ops, resolution: { kind: "not-applied" } })).rejects.toThrow(
      InvocationNotResolvableError,
    );

    // After the lease: unknown, lease-lapsed, everywhere. Lapse authorizes nothing: eight concurrent retries run nothing.
    expect(await later.service.reconcile(invocationId, { actor: dana, surface: "aiSdk" })).toMatchObject({ state: "unknown", reason: "lease-lapsed" });
    expect(await lapsed.client.reconcile({ invocationId })).toMatchObject({ state: "unknown", reason: "lease-lapsed" });
    const retries = await Promise.all(Array.from({ length: 8 }, () => lapsed.client.invoke(refund(orderId, invocationId))));
    for (const retry of retries) expect(retry).toMatchObject({ status: "outcome-unknown", reason: "lease-lapsed" });
    expect(await effects(orderId)).toHaveLength(effectCount);
    const { rows } = await pool.query(`select state, fence::int as fence from ${schema}.orpc_agent_invocations where invocation_id = $1`, [invocationId]);
    expect(rows).toEqual([{ state: "claimed", fence: 1 }]);
  }

  it("D-4 / F1: killed after the claim, before the effect: claimed, then unknown after the lease; only not-applied lets it run, once, with the same key", async () => {
    const { invocationId } = await killMidInvocation("ord-before", "before");
    expect(await effects("ord-before")).toEqual([]);
    await expectClaimedThenLapsed(invocationId, "ord-before", 0);

    // The application finds no refund under the idempotency key and releases the invocation.
    await later.service.resolve(invocationId, { expectedFence: 1, by: ops, note: "no refund with this key", resolution: { kind: "not-applied" } });
    const rerun = await lapsed.client.invoke(refund("ord-before", invocationId));
    expect(rerun).toMatchObject({ status: "completed", replayed: false, output: { refunded: 100, orderId: "ord-before" } });
    expect(await effects("ord-before")).toEqual([{ idempotency_key: keyOf(invocationId), actor_id: "u_dana", pid: lapsed.worker.pid }]);
    expect(await lapsed.client.invoke(refund("ord-before", invocationId))).toEqual({ ...rerun, replayed: true });
    expect(await current.client.invoke(refund("ord-before", invocationId))).toEqual({ ...rerun, replayed: true });
    expect(await effects("ord-before")).toHaveLength(1);
    expect(await now.service.get(invocationId)).toMatchObject({ state: "settled", fence: 2, resolution: { kind: "not-applied", note: "no refund with this key" } });
  });

  it("D-4 / F1: killed after the effect: claimed, then unknown after the lease, effect count 1; resolved applied, it replays and never runs again", async () => {
    const { invocationId, pid } = await killMidInvocation("ord-after", "after");
    expect(await effects("ord-after")).toEqual([{ idempotency_key: keyOf(invocationId), actor_id: "u_dana", pid }]);
    await expectClaimedThenLapsed(invocationId, "ord-after", 1);

    // The application finds the refund under the idempotency key and settles the invocation with it.
    await later.service.resolve(invocationId, { expectedFence: 1, by: ops, resolution: { kind: "applied", output: { refunded: 100, orderId: "ord-after" } } });
    for (const client of [current.client, lapsed.client]) {
      expect(await client.invoke(refund("ord-after", invocationId))).toMatchObject({
        status: "completed",
        replayed: true,
        output: { refunded: 100, orderId: "ord-after" },
      });
    }
    expect(await lapsed.client.reconcile({ invocationId })).toMatchObject({ state: "settled", result: { status: "completed" } });
    expect(await effects("ord-after")).toHaveLength(1);
    expect(await now.service.get(invocationId)).toMatchObject({ state: "settled", fence: 1, resolution: { kind: "applied", by: ops } });
  });
});
