import { describe } from "vitest";
import { describeInvocationJournalContract } from "../../../../test-fixtures/invocation-journal-contract.js";
import { invocationsDdl } from "../../src/ddl.js";
import { createPgInvocationJournal, INVOCATIONS_DDL } from "../../src/index.js";
import { usePglite } from "../support/pglite.js";
import { REAL_SERVER, usePgSchema } from "../support/real-server.js";

// The shared journal contract, unchanged (docs/architecture/spec/distributed.md#distributed-5-6, docs/architecture/spec/distributed.md#distributed-10 J1–J8). Every check works in its own
// namespace, so the table is created once per store and never emptied.
describe("PGlite (one connection: statements and mapping, serial)", () => {
  const pglite = usePglite(INVOCATIONS_DDL);

  describeInvocationJournalContract("D-3: the Postgres journal over PGlite", async (now) => createPgInvocationJournal({ query: pglite.query, now }));
});

describe(`${REAL_SERVER} (16 pooled connections: true concurrency)`, () => {
  const server = usePgSchema("journal_contract", (schema) => [invocationsDdl(`${schema}.orpc_agent_invocations`)], { max: 16 });

  describeInvocationJournalContract("D-3: the Postgres journal over a pg.Pool", async (now) =>
    createPgInvocationJournal({ query: server.query, table: `${server.name}.orpc_agent_invocations`, now }),
  );
});
