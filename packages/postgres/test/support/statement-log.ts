import type { PgQuery } from "../../src/index.js";

/** Wraps a `PgQuery` and records every statement it passes on, with its parameters, in order. */
export function recordStatements(inner: PgQuery): { query: PgQuery; statements: { sql: string; params: unknown[] }[] } {
  const statements: { sql: string; params: unknown[] }[] = [];
  const query: PgQuery = (sql, params) => {
    statements.push({ sql, params });
    return inner(sql, params);
  };
  return { query, statements };
}

/** One audit INSERT as the seam saw it: the rows it carried (type and execution id of each) and how it ended. */
export type LoggedInsert = {
  rows: { type: string; executionId: string | null }[];
  outcome: "pending" | "fulfilled" | "rejected";
  error?: unknown;
};

/**
 * Wraps a `PgQuery` and logs every audit INSERT it passes on, so a test knows which statement carried which event
 * and whether it failed; other statements pass through unlogged.
 */
export function logAuditInserts(inner: PgQuery): { query: PgQuery; inserts: LoggedInsert[] } {
  const inserts: LoggedInsert[] = [];
  const query: PgQuery = (sql, params) => {
    if (!/^insert into \S+ \(type, /.test(sql)) return inner(sql, params);
    // The chained statement has 15 parameters per row, the original 10.
    const width = sql.includes("chain_id") ? 15 : 10;
    const logged: LoggedInsert = { rows: [], outcome: "pending" };
    for (let i = 0; i < params.length; i += width) {
      logged.rows.push({ type: String(params[i]), executionId: params[i + 5] == null ? null : String(params[i + 5]) });
    }
    inserts.push(logged);
    const result = Promise.resolve().then(() => inner(sql, params));
    result.then(
      () => void (logged.outcome = "fulfilled"),
      (error: unknown) => {
        logged.outcome = "rejected";
        logged.error = error;
      },
    );
    return result;
  };
  return { query, inserts };
}

/** The logged statement that carried an execution's `capability.started` row. */
export function statementOfStarted(inserts: LoggedInsert[], executionId: string): LoggedInsert | undefined {
  return inserts.find((insert) => insert.rows.some((row) => row.type === "capability.started" && row.executionId === executionId));
}
