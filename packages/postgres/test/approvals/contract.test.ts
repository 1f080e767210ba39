import type { PGlite } from "@electric-sql/pglite";
import type pg from "pg";
import { afterAll, beforeAll, describe } from "vitest";
import { describeApprovalCoordinatorContract } from "../../../../test-fixtures/approval-coordinator-contract.js";
import { APPROVALS_DDL, createPgApprovalCoordinator } from "../../src/index.js";
import { createPglite, pgliteQuery } from "../support/pglite.js";
import {
  applyApprovalsDdl,
  createTestPool,
  createTestSchema,
  dropTestSchema,
  REAL_SERVER,
} from "../support/real-server.js";

// The shared coordinator contract, unchanged (docs/architecture/spec/postgres.md#postgres-9-1, docs/architecture/spec/postgres.md#postgres-9-2): the DDL is applied once
// and the table emptied before each case.
describe("PGlite", () => {
  let db: PGlite;
  beforeAll(async () => {
    db = await createPglite();
    await db.exec(APPROVALS_DDL);
  });
  afterAll(async () => {
    await db?.close();
  });

  describeApprovalCoordinatorContract("SI-5: the Postgres coordinator over PGlite", async (now) => {
    await db.query("truncate table orpc_agent_approvals");
    return createPgApprovalCoordinator({ query: pgliteQuery(db), now });
  });
});

describe(REAL_SERVER, () => {
  let pool: pg.Pool;
  let schema: string;
  let table: string;
  beforeAll(async () => {
    pool = createTestPool({ max: 8 });
    schema = await createTestSchema(pool, "contract");
    table = `${schema}.orpc_agent_approvals`;
    await applyApprovalsDdl((sql) => pool.query(sql), table);
  });
  afterAll(async () => {
    if (pool === undefined) return;
    await dropTestSchema(pool, schema);
    await pool.end();
  });

  describeApprovalCoordinatorContract("SI-5: the Postgres coordinator over a pg.Pool", async (now) => {
    await pool.query(`truncate table ${table}`);
    return createPgApprovalCoordinator({ query: (sql, params) => pool.query(sql, params), table, now });
  });
});
