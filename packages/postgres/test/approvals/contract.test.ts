import { describe } from "vitest";
import { describeApprovalCoordinatorContract } from "../../../../test-fixtures/approval-coordinator-contract.js";
import { approvalsDdl } from "../../src/ddl.js";
import { APPROVALS_DDL, createPgApprovalCoordinator } from "../../src/index.js";
import { usePglite } from "../support/pglite.js";
import { REAL_SERVER, usePgSchema } from "../support/real-server.js";

// The shared coordinator contract, unchanged (docs/architecture/spec/postgres.md#postgres-9-1, docs/architecture/spec/postgres.md#postgres-9-2): the DDL is applied once
// and the table emptied before each case.
describe("PGlite", () => {
  const pglite = usePglite(APPROVALS_DDL);

  describeApprovalCoordinatorContract("SI-5: the Postgres coordinator over PGlite", async (now) => {
    await pglite.db().query("truncate table orpc_agent_approvals");
    return createPgApprovalCoordinator({ query: pglite.query, now });
  });
});

describe(REAL_SERVER, () => {
  const server = usePgSchema("contract", (schema) => [approvalsDdl(`${schema}.orpc_agent_approvals`)], { max: 8 });

  describeApprovalCoordinatorContract("SI-5: the Postgres coordinator over a pg.Pool", async (now) => {
    const table = `${server.name}.orpc_agent_approvals`;
    await server.query(`truncate table ${table}`, []);
    return createPgApprovalCoordinator({ query: server.query, table, now });
  });
});
