import { describe } from "vitest";
import { describeGrantStoreContract } from "../../../../test-fixtures/grant-store-contract.js";
import { approvalsDdl, grantsDdl } from "../../src/ddl.js";
import { APPROVALS_DDL, createPgApprovalCoordinator } from "../../src/index.js";
import { usePglite } from "../support/pglite.js";
import { REAL_SERVER, usePgSchema } from "../support/real-server.js";

// The shared grant store contract (SI-13), unchanged, as the approval contract runs (contract.test.ts beside
// approvals/): the DDL applied once, both tables emptied before each case.
describe("PGlite", () => {
  // APPROVALS_DDL creates the grants table too: the setup path of every existing install.
  const pglite = usePglite(APPROVALS_DDL);

  describeGrantStoreContract("SI-13: the Postgres coordinator over PGlite", async (now) => {
    await pglite.db().query("truncate table orpc_agent_approvals, orpc_agent_grants");
    return createPgApprovalCoordinator({ query: pglite.query, now });
  });
});

describe(REAL_SERVER, () => {
  const tables = (schema: string) => ({ table: `${schema}.orpc_agent_approvals`, grantsTable: `${schema}.orpc_agent_grants` });
  const server = usePgSchema(
    "grant_contract",
    (schema) => [approvalsDdl(tables(schema).table), grantsDdl(tables(schema).grantsTable)],
    { max: 8 },
  );

  describeGrantStoreContract("SI-13: the Postgres coordinator over a pg.Pool", async (now) => {
    const { table, grantsTable } = tables(server.name);
    await server.query(`truncate table ${table}, ${grantsTable}`, []);
    return createPgApprovalCoordinator({ query: server.query, table, grantsTable, now });
  });
});
