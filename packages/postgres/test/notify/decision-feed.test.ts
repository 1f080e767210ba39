// Decisions across instances on a real server (docs/reference/postgres.md#decisions-across-instances): two pools are two
// instances of the app on one database. A decision made through one coordinator is NOTIFYed by its own statement and
// heard by the feed of the other instance, over pgListenFromClient's dedicated connection.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApprovalDecision } from "@orpc-agent/core";
import { makeApprovalRequest } from "../../../../test-fixtures/approval-coordinator-contract.js";
import { createPgApprovalCoordinator, createPgDecisionFeed, pgDecisionChannel, pgListenFromClient, type PgListen, type PgQuery } from "../../src/index.js";
import { applyApprovalsDdl, createTestPool, createTestSchema, dropTestSchema, REAL_SERVER, TEST_DATABASE_URL } from "../support/real-server.js";

const APPROVE: ApprovalDecision = { status: "approved", approver: { id: "user_manager", kind: "user" } };

describe(`createPgDecisionFeed on a ${REAL_SERVER}`, () => {
  let instanceA: pg.Pool;
  let instanceB: pg.Pool;
  let schema: string;
  let otherSchema: string;
  let table: string;
  let otherTable: string;
  let closers: (() => Promise<unknown>)[] = [];
  let names = 0;

  beforeAll(async () => {
    instanceA = createTestPool({ max: 4 });
    instanceB = createTestPool({ max: 4 });
    schema = await createTestSchema(instanceA, "feed");
    otherSchema = await createTestSchema(instanceA, "feed_other");
    table = `${schema}.orpc_agent_approvals`;
    otherTable = `${otherSchema}.orpc_agent_approvals`;
    await applyApprovalsDdl((sql) => instanceA.query(sql), table);
    await applyApprovalsDdl((sql) => instanceA.query(sql), otherTable);
  });

  afterAll(async () => {
    for (const close of closers) await close().catch(() => undefined);
    if (instanceA === undefined) return;
    await dropTestSchema(instanceA, schema);
    await dropTestSchema(instanceA, otherSchema);
    await instanceA.end();
    await instanceB?.end();
  });

  const queryOf =
    (pool: pg.Pool | pg.PoolClient): PgQuery =>
    (sql, params) =>
      pool.query(sql, params);
  const coordinatorOn = (pool: pg.Pool | pg.PoolClient, on = table) => createPgApprovalCoordinator({ query: queryOf(pool), table: on });

  /** A LISTEN connection of its own, named so the test can find (and kill) its backend; `gate` holds back reconnects. */
  function listenerConnection() {
    const applicationName = `orpc_feed_${process.pid}_${(names += 1)}`;
    const gate: { closed?: Promise<void>; open?: () => void } = {};
    let connects = 0;
    const connected: (() => void)[] = [];
    const listen = pgListenFromClient(
      () => {
        const client = new pg.Client({ connectionString: TEST_DATABASE_URL, application_name: applicationName });
        const connect = client.connect.bind(client);
        client.connect = (async () => {
          connects += 1;
          for (const wake of connected.splice(0)) wake();
          if (gate.closed !== undefined) await gate.closed;
          return connect();
        }) as typeof client.connect;
        return client;
      },
      { backoff: { initialMs: 10, maxMs: 200 }, onError: () => undefined },
    );
    closers.push(() => listen.close());
    // Every LISTEN the feed asks for, so a test can await the moment it is in effect.
    const listening: Promise<unknown>[] = [];
    const events = { lost: 0, restored: 0, onRestored: [] as (() => void)[] };
    const observed: PgListen = (channel, onPayload, given) => {
      const started = listen(channel, onPayload, {
        lost: () => {
          events.lost += 1;
          given?.lost?.();
        },
        restored: () => {
          events.restored += 1;
          given?.restored?.();
          for (const wake of events.onRestored.splice(0)) wake();
        },
      });
      listening.push(started);
      return started;
    };
    return {
      applicationName,
      listen: observed,
      /** Resolves once every LISTEN asked for so far is in effect. */
      ready: () => Promise.all(listening),
      events,
      connects: () => connects,
      nextConnect: () => new Promise<void>((resolve) => connected.push(resolve)),
      holdReconnects: () => {
        gate.closed = new Promise<void>((resolve) => (gate.open = resolve));
      },
      releaseReconnects: () => {
        gate.closed = undefined;
        gate.open?.();
      },
    };
  }

  /** The ids a subscriber heard, and a wait for one of them. */
  function heard() {
    const ids: string[] = [];
    const waiting: { id: string; resolve: () => void }[] = [];
    const listener = (id: string) => {
      ids.push(id);
      for (const w of waiting.filter((w) => w.id === id)) w.resolve();
    };
    const until = (id: string) => (ids.includes(id) ? Promise.resolve() : new Promise<void>((resolve) => waiting.push({ id, resolve })));
    return { ids, listener, until };
  }

  async function pendingApproval(on = table, overrides: Record<string, unknown> = {}): Promise<string> {
    const request = makeApprovalRequest(new Date(), { id: `apr_feed_${crypto.randomUUID()}`, ...overrides });
    await coordinatorOn(instanceA, on).create(request);
    return request.id;
  }

  async function backendsNamed(applicationName: string): Promise<number> {
    const { rows } = await instanceA.query("select count(*)::int as n from pg_stat_activity where application_name = $1", [applicationName]);
    return rows[0].n as number;
  }

  it("a decision made on instance A reaches a waiting listener on instance B; the payload is the approval id alone", async () => {
    const connection = listenerConnection();
    const feed = createPgDecisionFeed({ listen: connection.listen, query: queryOf(instanceB), table });
    const subscriber = heard();
    const stop = feed(subscriber.listener);
    await connection.ready();

    const id = await pendingApproval();
    await coordinatorOn(instanceA).decide(id, APPROVE);
    await subscriber.until(id);
    expect(subscriber.ids).toEqual([id]);
    stop();
  });

  it("a decision that nobody listens for succeeds, notify or not; with decisionChannel: false the statement sends nothing", async () => {
    const id = await pendingApproval();
    await expect(coordinatorOn(instanceA).decide(id, APPROVE)).resolves.toMatchObject({ status: "approved" });

    const statements: string[] = [];
    const silent = createPgApprovalCoordinator({ query: (sql, params) => (statements.push(sql), instanceA.query(sql, params)), table, decisionChannel: false });
    const other = await pendingApproval();
    await expect(silent.decide(other, APPROVE)).resolves.toMatchObject({ status: "approved" });
    expect(statements).toHaveLength(1);
    expect(statements[0]).not.toMatch(/pg_notify/);
  });

  it("a decision with its notify is still one round trip", async () => {
    const statements: string[] = [];
    const counted = createPgApprovalCoordinator({ query: (sql, params) => (statements.push(sql), instanceA.query(sql, params)), table });
    const id = await pendingApproval();
    await counted.decide(id, APPROVE);
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(/pg_notify/);
  });

  it("unsubscribing stops delivery and ends the LISTEN connection once nobody waits", async () => {
    const connection = listenerConnection();
    const feed = createPgDecisionFeed({ listen: connection.listen, query: queryOf(instanceB), table });
    const gone = heard();
    const stop = feed(gone.listener);
    await connection.ready();
    expect(await backendsNamed(connection.applicationName)).toBe(1);

    stop();
    // The backend goes away once the client ended; PostgreSQL reports that a moment later.
    while ((await backendsNamed(connection.applicationName)) > 0) await new Promise((resolve) => setTimeout(resolve, 20));

    const control = listenerConnection();
    const stays = heard();
    const stopControl = createPgDecisionFeed({ listen: control.listen, query: queryOf(instanceB), table })(stays.listener);
    await control.ready();
    const id = await pendingApproval();
    await coordinatorOn(instanceA).decide(id, APPROVE);
    await stays.until(id);
    expect(gone.ids).toEqual([]);
    stopControl();
  });

  it("a LISTEN connection killed by pg_terminate_backend reconnects: later decisions arrive, and one made during the gap is reported on reconnect", async () => {
    const connection = listenerConnection();
    const feed = createPgDecisionFeed({ listen: connection.listen, query: queryOf(instanceB), table });
    const subscriber = heard();
    const stop = feed(subscriber.listener);
    await connection.ready();

    connection.holdReconnects();
    const reconnecting = connection.nextConnect();
    await instanceA.query("select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1", [connection.applicationName]);
    await reconnecting;
    // The gap: the old connection is gone and the new one is held back, so no NOTIFY can reach this instance.
    const duringGap = await pendingApproval();
    await coordinatorOn(instanceA).decide(duringGap, APPROVE);
    const restored = new Promise<void>((resolve) => connection.events.onRestored.push(resolve));
    connection.releaseReconnects();
    await restored;
    await subscriber.until(duringGap);

    const after = await pendingApproval();
    await coordinatorOn(instanceA).decide(after, APPROVE);
    await subscriber.until(after);
    expect(connection.events.lost).toBe(1);
    expect(connection.events.restored).toBe(1);
    expect(connection.connects()).toBeGreaterThanOrEqual(2);
    stop();
  });

  it("a decision rolled back with its transaction notifies nobody", async () => {
    const connection = listenerConnection();
    const subscriber = heard();
    const stop = createPgDecisionFeed({ listen: connection.listen, query: queryOf(instanceB), table })(subscriber.listener);
    await connection.ready();

    const rolledBack = await pendingApproval();
    const transaction = await instanceA.connect();
    try {
      await transaction.query("begin");
      await coordinatorOn(transaction).decide(rolledBack, APPROVE);
      await transaction.query("rollback");
    } finally {
      transaction.release();
    }
    // NOTIFYs are delivered in commit order: once a later committed decision is heard, the rolled-back one never will be.
    const committed = await pendingApproval();
    await coordinatorOn(instanceA).decide(committed, APPROVE);
    await subscriber.until(committed);
    expect(subscriber.ids).toEqual([committed]);
    expect((await coordinatorOn(instanceB).get(rolledBack))?.status).toBe("pending");
    stop();
  });

  it("decisions on another schema's table, and quorum votes that decide nothing, are not delivered", async () => {
    expect(pgDecisionChannel(table)).not.toBe(pgDecisionChannel(otherTable));
    const connection = listenerConnection();
    const subscriber = heard();
    const stop = createPgDecisionFeed({ listen: connection.listen, query: queryOf(instanceB), table })(subscriber.listener);
    const otherConnection = listenerConnection();
    const other = heard();
    const stopOther = createPgDecisionFeed({ listen: otherConnection.listen, query: queryOf(instanceB), table: otherTable })(other.listener);
    await connection.ready();
    await otherConnection.ready();

    const elsewhere = await pendingApproval(otherTable);
    await coordinatorOn(instanceA, otherTable).decide(elsewhere, APPROVE);
    const halfway = await pendingApproval(table, { quorum: 2 });
    await coordinatorOn(instanceA).decide(halfway, APPROVE);
    const here = await pendingApproval();
    await coordinatorOn(instanceA).decide(here, APPROVE);

    await subscriber.until(here);
    await other.until(elsewhere);
    expect(subscriber.ids).toEqual([here]);
    expect(other.ids).toEqual([elsewhere]);
    stop();
    stopOther();
  });
});
