import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pgQueryFromPool } from "../src/index.js";
import { REAL_SERVER, TEST_DATABASE_URL } from "./support/real-server.js";

// A terminated idle connection must not take the process down (issue 34 item 2). Vitest fails the run on an
// unhandled 'error' event, so these tests also fail if the helper ever stops attaching the listener.
describe(`pgQueryFromPool on a ${REAL_SERVER}`, () => {
  let admin: pg.Client;
  beforeAll(async () => {
    admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    admin.on("error", () => {});
    await admin.connect();
  });
  afterAll(async () => {
    await admin.end();
  });

  /** Runs one query so a connection sits idle in the pool, then terminates its backend from outside. */
  async function terminateIdleConnection(query: ReturnType<typeof pgQueryFromPool>): Promise<number> {
    const { rows } = await query("select pg_backend_pid() as pid", []);
    const pid = Number(rows[0]!.pid);
    const { rows: done } = await admin.query("select pg_terminate_backend($1) as ok", [pid]);
    expect(done[0]!.ok).toBe(true);
    return pid;
  }

  it("a pool with no error listener survives pg_terminate_backend on an idle connection and reconnects", async () => {
    const pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 1 });
    expect(pool.listenerCount("error")).toBe(0);
    const seen: Error[] = [];
    const query = pgQueryFromPool(pool, { onIdleError: (error) => seen.push(error) });
    try {
      const pid = await terminateIdleConnection(query);
      await expect.poll(() => seen.length, { timeout: 5_000 }).toBe(1);
      expect((seen[0] as Error & { code?: string }).code).toBe("57P01");
      // The pool replaced the connection: the next statement runs on a new backend.
      const { rows } = await query("select pg_backend_pid() as pid", []);
      expect(Number(rows[0]!.pid)).not.toBe(pid);
    } finally {
      await pool.end();
    }
  });

  it("a throwing onIdleError still does not crash the process", async () => {
    const pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 1 });
    let calls = 0;
    const query = pgQueryFromPool(pool, {
      onIdleError: () => {
        calls++;
        throw new Error("handler bug");
      },
    });
    try {
      await terminateIdleConnection(query);
      await expect.poll(() => calls, { timeout: 5_000 }).toBe(1);
      await expect(query("select 1 as one", [])).resolves.toMatchObject({ rows: [{ one: 1 }] });
    } finally {
      await pool.end();
    }
  });

  it("keeps a listener the application attached as the only one", async () => {
    const pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 1 });
    const mine: Error[] = [];
    pool.on("error", (error) => mine.push(error));
    const query = pgQueryFromPool(pool, { onIdleError: () => expect.unreachable("the application's listener handles it") });
    try {
      expect(pool.listenerCount("error")).toBe(1);
      await terminateIdleConnection(query);
      await expect.poll(() => mine.length, { timeout: 5_000 }).toBe(1);
    } finally {
      await pool.end();
    }
  });

  it("rejects something that is not a pool", () => {
    expect(() => pgQueryFromPool({} as never)).toThrow(/pass a node-postgres Pool/);
  });
});
