// Drivers disagree on how JS values map to Postgres types, so the package sends only strings and
// null (docs/architecture/spec/postgres.md#postgres-3-2) and never relies on a driver's result parsers (docs/architecture/spec/postgres.md#postgres-3-3).

/** A JSON-valued field, sent as text and cast with `$n::jsonb`. `undefined` becomes SQL NULL. */
export function jsonParam(value: unknown): string | null {
  const text = JSON.stringify(value);
  return text === undefined ? null : text;
}

/** An instant, sent as ISO text and cast with `$n::timestamptz`. */
export function instantParam(date: Date): string {
  return date.toISOString();
}

/** A jsonb column projected as text: SQL NULL → undefined; the text "null" → null. Parsed exactly once. */
export function jsonColumn(value: unknown, column: string): unknown {
  if (value === null || value === undefined) return undefined;
  if (typeof value !== "string") throw new Error(`Column "${column}" must be projected as text (got ${typeof value})`);
  return JSON.parse(value);
}

/** A timestamptz column projected as epoch milliseconds (float8). */
export function instantColumn(value: unknown, column: string): Date {
  const ms = typeof value === "number" ? value : typeof value === "string" ? Number(value) : Number.NaN;
  if (!Number.isFinite(ms)) throw new Error(`Column "${column}" is not an instant`);
  return new Date(Math.round(ms));
}

/** SQL that projects a timestamptz column as epoch milliseconds. */
export function epochMs(column: string): string {
  return `(extract(epoch from ${column}) * 1000)::float8 as ${column}_ms`;
}
