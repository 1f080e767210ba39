import type { PGlite } from "@electric-sql/pglite";
import type pg from "pg";
import { afterAll, beforeAll, describe } from "vitest";
import { describeInvocationJournalContract } from "../../../../test-fixtures/invocation-journal-contract.js";
import { invocationsDdl } from "../../src/ddl.js";
import { createPgInvocationJournal, INVOCATIONS_DDL } from "../../src/index.js";
import { createPglite, pgliteQuery } from "../support/pglite.js";
import { createTestPool, createTestSchema, dropTestSchema, REAL_SERVER } from "../support/real-server.js";

// The shared journal contract, unchanged (docs/architecture/spec/distributed.md#distributed-5-6, docs/architecture/spec/distributed.md#distributed-10 J1–J8). Every check works in its own
// namespace, so the table is created once per store and never emptied.
describe("PGlite (one connection: statements and mapping, serial)", () => {
  let db: PGlite;
  beforeAll(async () => {
    db = await createPglite();
    await db.exec(INVOCATIONS_DDL);
  });
  afterAll(async () => {
    await db?.close();
  });

  describeInvocationJournalContract("D-3: the Postgres journal over PGlite", async (now) => createPgInvocationJournal({ query: pgliteQuery(db), now }));
});

describe(`${REAL_SERVER} (16 pooled connections: true concurrency)`, () => {
  let pool: pg.Pool;
  let schema: string;
  let table: string;
  beforeAll(async () => {
    pool = createTestPool({ max: 16 });
    schema = await createTestSchema(pool, "journal_contract");
    table = `${schema}.orpc_agent_invocations`;
    await pool.query(invocationsDdl(table));
  });
  afterAll(async () => {
    if (pool === undefined) return;
    await dropTestSchema(pool, schema);
    await pool.end();
  });

  describeInvocationJournalContract("D-3: the Postgres journal over a pg.Pool", async (now) =>
    createPgInvocationJournal({ query: (sql, params) => pool.query(sql, params), table, now }),
  );
});
