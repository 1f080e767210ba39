import type { PGlite } from "@electric-sql/pglite";
import type pg from "pg";
import { afterAll, beforeAll, describe } from "vitest";
import { describeGrantStoreContract } from "../../../../test-fixtures/grant-store-contract.js";
import { grantsDdl } from "../../src/ddl.js";
import { APPROVALS_DDL, createPgApprovalCoordinator } from "../../src/index.js";
import { createPglite, pgliteQuery } from "../support/pglite.js";
import { applyApprovalsDdl, createTestPool, createTestSchema, dropTestSchema, REAL_SERVER } from "../support/real-server.js";

// The shared grant store contract (SI-13), unchanged, as the approval contract runs (contract.test.ts beside
// approvals/): the DDL applied once, both tables emptied before each case.
describe("PGlite", () => {
  let db: PGlite;
  beforeAll(async () => {
    db = await createPglite();
    // APPROVALS_DDL creates the grants table too: the setup path of every existing install.
    await db.exec(APPROVALS_DDL);
  });
  afterAll(async () => {
    await db?.close();
  });

  describeGrantStoreContract("SI-13: the Postgres coordinator over PGlite", async (now) => {
    await db.query("truncate table orpc_agent_approvals, orpc_agent_grants");
    return createPgApprovalCoordinator({ query: pgliteQuery(db), now });
  });
});

describe(REAL_SERVER, () => {
  let pool: pg.Pool;
  let schema: string;
  let table: string;
  let grantsTable: string;
  beforeAll(async () => {
    pool = createTestPool({ max: 8 });
    schema = await createTestSchema(pool, "grant_contract");
    table = `${schema}.orpc_agent_approvals`;
    grantsTable = `${schema}.orpc_agent_grants`;
    await applyApprovalsDdl((sql) => pool.query(sql), table);
    await pool.query(grantsDdl(grantsTable));
  });
  afterAll(async () => {
    if (pool === undefined) return;
    await dropTestSchema(pool, schema);
    await pool.end();
  });

  describeGrantStoreContract("SI-13: the Postgres coordinator over a pg.Pool", async (now) => {
    await pool.query(`truncate table ${table}, ${grantsTable}`);
    return createPgApprovalCoordinator({ query: (sql, params) => pool.query(sql, params), table, grantsTable, now });
  });
});
