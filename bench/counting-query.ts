// Round trips counted, not guessed: every statement a component sends goes through its `PgQuery` seam.
import type { PgQuery } from "@orpc-agent/postgres";

export type CountingQuery = { query: PgQuery; readonly count: number; reset(): void };

export function countingQuery(inner: PgQuery): CountingQuery {
  let count = 0;
  return {
    query: (sql, params) => {
      count++;
      return inner(sql, params);
    },
    get count() {
      return count;
    },
    reset() {
      count = 0;
    },
  };
}
