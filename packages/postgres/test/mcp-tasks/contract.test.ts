// The PostgreSQL MCP task store against the shared contract (issue 47) that the in-memory store runs too, on PGlite
// (the DDL as INVOCATIONS_DDL ships it) and on the real server (a schema of its own).
import type { PGlite } from "@electric-sql/pglite";
import type pg from "pg";
import { afterAll, beforeAll, describe } from "vitest";
import { describeMCPTaskStoreContract, type ContractTaskRecord } from "../../../../test-fixtures/mcp-task-store-contract.js";
import { mcpTasksDdl } from "../../src/ddl.js";
import { createPgMCPTaskStore, INVOCATIONS_DDL } from "../../src/index.js";
import { createPglite, pgliteQuery } from "../support/pglite.js";
import { createTestPool, createTestSchema, dropTestSchema, REAL_SERVER } from "../support/real-server.js";

describe("PGlite", () => {
  let db: PGlite;
  beforeAll(async () => {
    db = await createPglite();
    await db.exec(INVOCATIONS_DDL);
  });
  afterAll(async () => {
    await db?.close();
  });

  describeMCPTaskStoreContract("the Postgres task store over PGlite", async (limits) => {
    await db.query("truncate table orpc_agent_mcp_tasks");
    return createPgMCPTaskStore<ContractTaskRecord>({ query: pgliteQuery(db), limits });
  });
});

describe(REAL_SERVER, () => {
  let pool: pg.Pool;
  let schema: string;
  let table: string;
  beforeAll(async () => {
    pool = createTestPool({ max: 8 });
    schema = await createTestSchema(pool, "mcp_task_contract");
    table = `${schema}.orpc_agent_mcp_tasks`;
    await pool.query(mcpTasksDdl(table));
  });
  afterAll(async () => {
    await dropTestSchema(pool, schema);
    await pool.end();
  });

  describeMCPTaskStoreContract("the Postgres task store on the real server", async (limits) => {
    await pool.query(`truncate table ${table}`);
    return createPgMCPTaskStore<ContractTaskRecord>({ query: (sql, params) => pool.query(sql, params), table, limits });
  });
});
