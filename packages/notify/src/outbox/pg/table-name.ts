// The table name is the only token interpolated into SQL, so it is checked at construction, as @orpc-agent/postgres
// checks its own; 63 characters per part stops PostgreSQL from truncating it into another table's name.
const TABLE_NAME = /^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)?$/;

export function assertTableName(table: unknown): asserts table is string {
  if (typeof table === "string" && TABLE_NAME.test(table) && table.split(".").every((part) => part.length <= 63)) return;
  throw new TypeError(
    `Invalid table name ${JSON.stringify(table)}: use lowercase letters, digits and "_", optionally schema-qualified ("schema.table"), at most 63 characters per part`,
  );
}
