// @orpc-agent/postgres, the durable journal, coordinator and audit sink these tests run on. Reached by path:
// the package is not a dependency of @orpc-agent/dbos (the adapter never imports it), so neither the type
// checker nor a child process started with plain `node` could resolve its name from here. The path is the
// very file vitest's alias maps "@orpc-agent/postgres" to, so there is one module instance either way.
export {
  APPROVALS_DDL,
  AUDIT_DDL,
  INVOCATIONS_DDL,
  createPgApprovalCoordinator,
  createPgAuditSink,
  createPgInvocationJournal,
  type PgQuery,
} from "../../../postgres/src/index.js";
