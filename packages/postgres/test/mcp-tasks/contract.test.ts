// The PostgreSQL MCP task store against the shared contract (issue 47) that the in-memory store runs too, on PGlite
// (the DDL as INVOCATIONS_DDL ships it) and on the real server (a schema of its own).
import { describe } from "vitest";
import { describeMCPTaskStoreContract, type ContractTaskRecord } from "../../../../test-fixtures/mcp-task-store-contract.js";
import { mcpTasksDdl } from "../../src/ddl.js";
import { createPgMCPTaskStore, INVOCATIONS_DDL } from "../../src/index.js";
import { usePglite } from "../support/pglite.js";
import { REAL_SERVER, usePgSchema } from "../support/real-server.js";

describe("PGlite", () => {
  const pglite = usePglite(INVOCATIONS_DDL);

  describeMCPTaskStoreContract("the Postgres task store over PGlite", async (limits) => {
    await pglite.db().query("truncate table orpc_agent_mcp_tasks");
    return createPgMCPTaskStore<ContractTaskRecord>({ query: pglite.query, limits });
  });
});

describe(REAL_SERVER, () => {
  const server = usePgSchema("mcp_task_contract", (schema) => [mcpTasksDdl(`${schema}.orpc_agent_mcp_tasks`)], { max: 8 });

  describeMCPTaskStoreContract("the Postgres task store on the real server", async (limits) => {
    const table = `${server.name}.orpc_agent_mcp_tasks`;
    await server.query(`truncate table ${table}`, []);
    return createPgMCPTaskStore<ContractTaskRecord>({ query: server.query, table, limits });
  });
});
