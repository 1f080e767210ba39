// The PostgreSQL MCP elicitation state store against the shared contract (issue 48) that the in-memory store runs
// too, on PGlite (the DDL as INVOCATIONS_DDL ships it) and on the real server (a schema of its own).
import type { PGlite } from "@electric-sql/pglite";
import type pg from "pg";
import { afterAll, beforeAll, describe } from "vitest";
import { describeMCPElicitationStateStoreContract } from "../../../../test-fixtures/mcp-elicitation-state-store-contract.js";
import { mcpElicitationDdl } from "../../src/ddl.js";
import { createPgMCPElicitationStateStore, INVOCATIONS_DDL } from "../../src/index.js";
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

  describeMCPElicitationStateStoreContract("the Postgres elicitation state store over PGlite", async (limits) => {
    await db.query("truncate table orpc_agent_mcp_elicitation_state");
    return createPgMCPElicitationStateStore({ query: pgliteQuery(db), limits });
  });
});

describe(REAL_SERVER, () => {
  let pool: pg.Pool;
  let schema: string;
  let table: string;
  beforeAll(async () => {
    pool = createTestPool({ max: 8 });
    schema = await createTestSchema(pool, "mcp_elicitation_contract");
    table = `${schema}.orpc_agent_mcp_elicitation_state`;
    await pool.query(mcpElicitationDdl(table));
  });
  afterAll(async () => {
    await dropTestSchema(pool, schema);
    await pool.end();
  });

  describeMCPElicitationStateStoreContract("the Postgres elicitation state store on the real server", async (limits) => {
    await pool.query(`truncate table ${table}`);
    return createPgMCPElicitationStateStore({ query: (sql, params) => pool.query(sql, params), table, limits });
  });
});
