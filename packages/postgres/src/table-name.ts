// The table name is the only token ever interpolated into SQL, so it is validated at
// construction (docs/architecture/spec/postgres.md#postgres-3-4). The 63-character limit stops Postgres from silently
// truncating an identifier into another table's name.
const TABLE_NAME = /^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)?$/;
const MAX_SEGMENT_LENGTH = 63;

export function assertTableName(table: unknown): asserts table is string {
  const valid =
    typeof table === "string" &&
    TABLE_NAME.test(table) &&
    table.split(".").every((segment) => segment.length <= MAX_SEGMENT_LENGTH);
  if (!valid) {
    throw new TypeError(
      `Invalid table name ${JSON.stringify(table)}: use lowercase letters, digits and "_", optionally schema-qualified ("schema.table"), at most 63 characters per part`,
    );
  }
}

/** Index names derive from the table name with "." → "_", never schema-qualified (docs/architecture/spec/postgres.md#postgres-3-4, docs/architecture/spec/postgres.md#postgres-3-6). */
export function indexPrefix(table: string): string {
  return table.replace(".", "_");
}
