// pgListenFromClient on a real server (docs/reference/postgres.md#decisions-across-instances): one dedicated connection
// for every channel, subscribers kept apart from each other's failures, a first connection that fails retried, and
// close() final. The reconnect after pg_terminate_backend is in decision-feed.test.ts.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pgListenFromClient } from "../../src/index.js";
import { createTestPool, REAL_SERVER, TEST_DATABASE_URL } from "../support/real-server.js";

describe(`pgListenFromClient on a ${REAL_SERVER}`, () => {
  let pool: pg.Pool;
  let names = 0;
  const channel = (label: string) => `orpc_listen_${label}_${process.pid}`;
  const clientNamed = (applicationName: string) => () => new pg.Client({ connectionString: TEST_DATABASE_URL, application_name: applicationName });
  const nextName = () => `orpc_listen_${process.pid}_${(names += 1)}`;

  beforeAll(() => {
    pool = createTestPool({ max: 2 });
  });
  afterAll(async () => {
    await pool?.end();
  });

  const notify = (to: string, payload: string) => pool.query("select pg_notify($1, $2)", [to, payload]);
  const backendsNamed = async (applicationName: string) =>
    (await pool.query("select count(*)::int as n from pg_stat_activity where application_name = $1", [applicationName])).rows[0].n as number;
  /** Collects payloads; `until` resolves when one arrives. */
  const collector = () => {
    const payloads: string[] = [];
    const waiting: { payload: string; resolve: () => void }[] = [];
    return {
      payloads,
      on: (payload: string) => {
        payloads.push(payload);
        for (const w of waiting.filter((w) => w.payload === payload)) w.resolve();
      },
      until: (payload: string) => (payloads.includes(payload) ? Promise.resolve() : new Promise<void>((resolve) => waiting.push({ payload, resolve }))),
    };
  };

  it("refuses what it cannot use: no client factory, an inverted backoff, a channel that is not a plain lowercase identifier", async () => {
    expect(() => pgListenFromClient(undefined as never)).toThrow(TypeError);
    expect(() => pgListenFromClient(clientNamed(nextName()), { backoff: { initialMs: 100, maxMs: 10 } })).toThrow(/backoff/);
    const listen = pgListenFromClient(clientNamed(nextName()));
    for (const bad of ['a"b', "Upper", "x; drop table t", "", "a".repeat(64), "1abc"]) {
      await expect(listen(bad, () => undefined)).rejects.toThrow(/Invalid channel/);
    }
    await listen.close();
  });

  it("every channel shares one connection; a subscriber that throws does not keep the others from hearing", async () => {
    const applicationName = nextName();
    const listen = pgListenFromClient(clientNamed(applicationName), { onError: () => undefined });
    const first = collector();
    const second = collector();
    await listen(channel("one"), () => {
      throw new Error("a subscriber's own bug");
    });
    const stopFirst = await listen(channel("one"), first.on);
    const stopSecond = await listen(channel("two"), second.on);
    expect(await backendsNamed(applicationName)).toBe(1);

    await notify(channel("one"), "p1");
    await notify(channel("two"), "p2");
    await first.until("p1");
    await second.until("p2");
    expect(first.payloads).toEqual(["p1"]);
    expect(second.payloads).toEqual(["p2"]);

    // Stopping one channel leaves the other listening on the same connection.
    await stopFirst();
    await notify(channel("one"), "p3");
    await notify(channel("two"), "p4");
    await second.until("p4");
    expect(first.payloads).toEqual(["p1"]);
    await stopSecond();
    await listen.close();
  });

  it("a first connection that fails is retried with backoff: listen resolves once the LISTEN is in effect, after lost then restored", async () => {
    const applicationName = nextName();
    let attempts = 0;
    const errors: unknown[] = [];
    const listen = pgListenFromClient(
      () => {
        attempts += 1;
        // Nothing listens on port 1: the first attempt fails as an unreachable server would.
        return attempts === 1 ? new pg.Client({ host: "127.0.0.1", port: 1, user: "postgres", database: "test" }) : clientNamed(applicationName)();
      },
      { backoff: { initialMs: 10, maxMs: 50 }, onError: (error) => void errors.push(error) },
    );
    const heard = collector();
    const events: string[] = [];
    const stop = await listen(channel("retry"), heard.on, { lost: () => void events.push("lost"), restored: () => void events.push("restored") });
    expect(attempts).toBeGreaterThanOrEqual(2);
    expect(errors.length).toBeGreaterThanOrEqual(1);
    expect(events).toEqual(["lost", "restored"]);
    await notify(channel("retry"), "after");
    await heard.until("after");
    await stop();
    await listen.close();
  });

  it("close() ends the connection and a later listen is refused", async () => {
    const applicationName = nextName();
    const listen = pgListenFromClient(clientNamed(applicationName));
    await listen(channel("close"), () => undefined);
    expect(await backendsNamed(applicationName)).toBe(1);
    await listen.close();
    while ((await backendsNamed(applicationName)) > 0) await new Promise((resolve) => setTimeout(resolve, 20));
    await expect(listen(channel("close"), () => undefined)).rejects.toThrow(/closed/);
  });
});
