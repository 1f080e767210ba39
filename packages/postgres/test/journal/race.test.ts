import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { journalClock, SAMPLE_COMPLETED_OUTCOME } from "../../../../test-fixtures/invocation-journal-contract.js";
import type { InvocationJournal, InvocationResolution, JournalBeginEntry } from "@orpc-agent/core/server";
import { invocationsDdl } from "../../src/ddl.js";
import { createPgInvocationJournal, type PgQuery } from "../../src/index.js";
import { createTestPool, createTestSchema, dropTestSchema, REAL_SERVER } from "../support/real-server.js";

// D-3 on a real server (docs/architecture/spec/distributed.md#distributed-5-6, docs/architecture/spec/distributed.md#distributed-10 J8): the compare-and-set statements under true concurrency.
// Where an interleaving matters, a harness connection holds a lock until every racer provably waits on it;
// the transaction belongs to the test only, never to the package.
const LEASE_MS = 30_000;
const MANAGER = { id: "u_ops", kind: "user" } as const;

describe(`D-3: journal races on a ${REAL_SERVER}`, () => {
  let pool: pg.Pool;
  /** The gate, the two dedicated racers and the lock watcher, apart from the journal's 16 pooled connections. */
  let harness: pg.Pool;
  let schema: string;
  let table: string;
  let gate: pg.PoolClient;
  let a: pg.PoolClient;
  let b: pg.PoolClient;
  const clock = journalClock(new Date().toISOString());
  /** Which server backends ran the journal's statements. */
  const backends = new Set<number>();

  /** One checked-out pool connection per statement, so concurrent calls run on separate backends. */
  const pooled: PgQuery = async (sql, params) => {
    const client = await pool.connect();
    try {
      backends.add((client as unknown as { processID: number }).processID);
      return await client.query(sql, params);
    } finally {
      client.release();
    }
  };
  const onClient =
    (client: pg.PoolClient): PgQuery =>
    (sql, params) =>
      client.query(sql, params);
  const journalOver = (query: PgQuery): InvocationJournal => createPgInvocationJournal({ query, table, now: clock.now });

  let namespace = 0;
  const entry = (over: Partial<JournalBeginEntry> = {}): JournalBeginEntry => ({
    namespace: `race-${namespace}`,
    invocationId: "inv-hot",
    fingerprint: "fp-1",
    capabilityId: "orders.refund",
    surface: "aiSdk",
    actor: { id: "u_dana", kind: "user" },
    leaseExpiresAt: new Date(clock.now().getTime() + LEASE_MS),
    ...over,
  });
  const resolution = (kind: InvocationResolution["kind"]): InvocationResolution => ({ kind, by: MANAGER, at: clock.now() });

  beforeAll(async () => {
    pool = createTestPool({ max: 16 });
    schema = await createTestSchema(pool, "journal_race");
    table = `${schema}.orpc_agent_invocations`;
    await pool.query(invocationsDdl(table));
    harness = createTestPool({ max: 4 });
    gate = await harness.connect();
    a = await harness.connect();
    b = await harness.connect();
  });
  afterAll(async () => {
    if (pool === undefined) return;
    for (const client of [gate, a, b]) client?.release();
    await harness?.end();
    await dropTestSchema(pool, schema);
    await pool.end();
  });

  /**
   * Commits the gate's transaction once `count` statements on this table wait on its lock (bounded wait);
   * commits anyway on timeout, so a failing check never leaves racers blocked.
   */
  async function openGateWhenWaiting(count: number): Promise<void> {
    const deadline = Date.now() + 10_000;
    try {
      for (;;) {
        const { rows } = await harness.query(
          "select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and pid <> $1 and query like $2",
          [(gate as unknown as { processID: number }).processID, `%${table}%`],
        );
        if ((rows[0].n as number) >= count) return;
        if (Date.now() > deadline) throw new Error(`only ${rows[0].n} of ${count} statements reached the lock`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    } finally {
      await gate.query("commit");
    }
  }

  it("D-3: 64 concurrent claims on one id over separate pool connections → exactly one winner, held at fence 1", async () => {
    namespace++;
    backends.clear();
    const journal = journalOver(pooled);
    // The gate blocks every insert on the table, so the first 16 claims (one per pooled connection) start together.
    await gate.query("begin");
    await gate.query(`lock table ${table} in share mode`);
    const racing = Promise.all(Array.from({ length: 64 }, () => journal.begin(entry())));
    await openGateWhenWaiting(16);
    const results = await racing;
    expect(results.filter((r) => r.kind === "claimed")).toHaveLength(1);
    expect(results.filter((r) => r.kind === "existing")).toHaveLength(63);
    for (const r of results) if (r.kind !== "conflict") expect(r.record).toMatchObject({ state: "claimed", fence: 1 });
    expect(backends.size).toBe(16);
    const { rows } = await pool.query(`select count(*)::int as n, max(fence)::int as fence from ${table} where namespace = $1`, [`race-${namespace}`]);
    expect(rows[0]).toEqual({ n: 1, fence: 1 });
  });

  it("D-3: 200 ids × 8 concurrent claims → 200 winners, one row each", async () => {
    namespace++;
    const journal = journalOver(pooled);
    const ids = Array.from({ length: 200 }, (_, i) => `inv-${i}`);
    const results = await Promise.all(ids.flatMap((invocationId) => Array.from({ length: 8 }, () => journal.begin(entry({ invocationId })))));
    const winners = results.filter((r) => r.kind === "claimed").map((r) => (r as { record: { invocationId: string } }).record.invocationId);
    expect(winners).toHaveLength(200);
    expect(new Set(winners).size).toBe(200);
    expect(results.filter((r) => r.kind === "conflict")).toHaveLength(0);
    const { rows } = await pool.query(`select count(*)::int as n, max(fence)::int as fence from ${table} where namespace = $1`, [`race-${namespace}`]);
    expect(rows[0]).toEqual({ n: 200, fence: 1 });
  });

  it("D-3: a stale fencing token writes nothing: renew and finish at the superseded fence change no column, even racing the holder", async () => {
    namespace++;
    const journalA = journalOver(onClient(a));
    const journalB = journalOver(onClient(b));
    const key = { namespace: `race-${namespace}`, invocationId: "inv-hot" };
    const first = await journalA.begin(entry());
    expect(first.kind).toBe("claimed");
    // A lapses, the application releases the row, B re-claims it at fence 2.
    clock.advance(LEASE_MS + 1);
    expect(await journalB.resolve(key, 1, { state: "pending" }, resolution("not-applied"))).toMatchObject({ state: "pending", fence: 1 });
    const second = await journalB.begin(entry());
    expect(second).toMatchObject({ kind: "claimed", record: { fence: 2 } });
    const snapshot = async () => (await pool.query(`select * from ${table} where namespace = $1`, [key.namespace])).rows;
    const before = await snapshot();

    expect(await journalA.renew(key, 1, new Date(clock.now().getTime() + LEASE_MS))).toBe(false);
    expect(await journalA.finish(key, 1, { state: "settled", outcome: SAMPLE_COMPLETED_OUTCOME })).toBe(false);
    expect(await journalA.finish(key, 1, { state: "unknown", reason: "interrupted" })).toBe(false);
    expect(await journalA.resolve(key, 1, { state: "pending" }, resolution("not-applied"))).toBeNull();
    expect(await snapshot()).toEqual(before);

    // Racing the current holder while a harness transaction holds the row lock: both finish at once when it
    // opens; the superseded fence matches no row version.
    await gate.query("begin");
    await gate.query(`select 1 from ${table} where namespace = $1 and invocation_id = $2 for update`, [key.namespace, key.invocationId]);
    const holder = journalB.finish(key, 2, { state: "unknown", reason: "interrupted" });
    const stale = journalA.finish(key, 1, { state: "settled", outcome: SAMPLE_COMPLETED_OUTCOME });
    await openGateWhenWaiting(1);
    expect(await stale).toBe(false);
    expect(await holder).toBe(true);
    const row = (await pool.query(`select state, fence::int as fence, outcome, unknown_reason from ${table} where namespace = $1`, [key.namespace])).rows[0];
    expect(row).toEqual({ state: "unknown", fence: 2, outcome: null, unknown_reason: "interrupted" });
  });

  it("D-3: a late settle racing resolve on a lapsed claim → exactly one wins and the row reflects it (gated, both orders, then 25 ungated)", async () => {
    namespace++;
    const journalA = journalOver(onClient(a));
    const journalB = journalOver(onClient(b));
    const race = async (invocationId: string, gated: boolean, resolveFirst: boolean) => {
      const key = { namespace: `race-${namespace}`, invocationId };
      const claimed = await journalA.begin(entry({ invocationId }));
      expect(claimed.kind).toBe("claimed");
      clock.advance(LEASE_MS + 1);
      if (gated) {
        await gate.query("begin");
        await gate.query(`select 1 from ${table} where namespace = $1 and invocation_id = $2 for update`, [key.namespace, invocationId]);
      }
      const settle = () => journalA.finish(key, 1, { state: "settled", outcome: SAMPLE_COMPLETED_OUTCOME });
      const release = () => journalB.resolve(key, 1, { state: "pending" }, resolution("not-applied"));
      const racing = resolveFirst
        ? Promise.all([release(), settle()]).then(([r, f]) => [f, r] as const)
        : Promise.all([settle(), release()]);
      if (gated) {
        await openGateWhenWaiting(2);
      }
      const [finished, resolved] = await racing;
      expect([finished, resolved !== null].filter(Boolean)).toHaveLength(1);
      const stored = await journalA.get(key);
      expect(stored).toMatchObject(finished ? { state: "settled", outcome: SAMPLE_COMPLETED_OUTCOME } : { state: "pending", resolution: { kind: "not-applied" } });
      if (finished) expect(stored!.resolution).toBeUndefined();
      else expect(stored!.outcome).toBeUndefined();
    };
    await race("inv-gated-1", true, false);
    await race("inv-gated-2", true, true);
    for (let i = 0; i < 25; i++) await race(`inv-${i}`, false, i % 2 === 0);
  });
});
