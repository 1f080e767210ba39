// SI-8 review of the PostgreSQL decision feed (issue 48): after its LISTEN connection is killed, the feed re-reads the
// decisions made around the gap from its own approvals table. Two applications in two schemas of one database: the
// re-read of one reports its own decided ids again and never an id decided in the other schema, nor one still pending.
import { createPgApprovalCoordinator, createPgDecisionFeed, pgListenFromClient, type PgListen } from "@orpc-agent/postgres";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeApprovalRequest } from "../../test-fixtures/approval-coordinator-contract.js";
import { applyApprovalsDdl, createTestPool, createTestSchema, dropTestSchema, TEST_DATABASE_URL } from "../../packages/postgres/test/support/real-server.js";

const APPROVE = { status: "approved" as const, approver: { id: "u_manager", kind: "user" as const } };
let pool: pg.Pool;
let mine: string;
let theirs: string;

beforeAll(async () => {
  pool = createTestPool({ max: 4 });
  mine = `${await createTestSchema(pool, "adv_feed_mine")}.orpc_agent_approvals`;
  theirs = `${await createTestSchema(pool, "adv_feed_theirs")}.orpc_agent_approvals`;
  await applyApprovalsDdl((sql) => pool.query(sql), mine);
  await applyApprovalsDdl((sql) => pool.query(sql), theirs);
});
afterAll(async () => {
  await dropTestSchema(pool, mine.split(".")[0]!);
  await dropTestSchema(pool, theirs.split(".")[0]!);
  await pool.end();
});

const coordinator = (table: string) => createPgApprovalCoordinator({ query: (sql, params) => pool.query(sql, params), table });
async function approval(table: string, decide: boolean): Promise<string> {
  const request = makeApprovalRequest(new Date(), { id: `apr_adv_${crypto.randomUUID()}` });
  await coordinator(table).create(request);
  if (decide) await coordinator(table).decide(request.id, APPROVE);
  return request.id;
}

describe("SI-8: the decision feed's reconnect re-read stays in its own table", () => {
  it("SI-8: killed and reconnected, the feed of one schema reports its own decisions again, never another schema's nor a pending one", async () => {
    const applicationName = `orpc_adv_feed_${process.pid}`;
    const connection = pgListenFromClient(() => new pg.Client({ connectionString: TEST_DATABASE_URL, application_name: applicationName }), {
      backoff: { initialMs: 10, maxMs: 100 },
      onError: () => undefined,
    });
    let restored!: () => void;
    const reconnected = new Promise<void>((resolve) => (restored = resolve));
    const listening: Promise<unknown>[] = [];
    const listen: PgListen = (channel, onPayload, events) => {
      const started = connection(channel, onPayload, {
        lost: () => events?.lost?.(),
        restored: () => {
          events?.restored?.();
          restored();
        },
      });
      listening.push(started);
      return started;
    };
    const ids: string[] = [];
    const waiting: { id: string; times: number; resolve: () => void }[] = [];
    const stop = createPgDecisionFeed({ listen, query: (sql, params) => pool.query(sql, params), table: mine })((id) => {
      ids.push(id);
      for (const w of waiting) if (ids.filter((seen) => seen === w.id).length >= w.times) w.resolve();
    });
    const heardTimes = (id: string, times: number) =>
      ids.filter((seen) => seen === id).length >= times ? Promise.resolve() : new Promise<void>((resolve) => waiting.push({ id, times, resolve }));
    try {
      await Promise.all(listening);
      const ours = await approval(mine, true);
      const others = await approval(theirs, true);
      const undecided = await approval(mine, false);
      await heardTimes(ours, 1);
      await pool.query("select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1", [applicationName]);
      await reconnected;
      // The re-read covers the margin before the drop: our decision is reported again, and only from our table.
      await heardTimes(ours, 2);
      const after = await approval(mine, true);
      await heardTimes(after, 1);
      expect(ids).not.toContain(others);
      expect(ids).not.toContain(undecided);
      expect(new Set(ids)).toEqual(new Set([ours, after]));
    } finally {
      stop();
      await connection.close();
    }
  });
});
