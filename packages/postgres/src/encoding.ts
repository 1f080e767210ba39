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

/**
 * A double, sent as JS's shortest round-trip text and cast with `$n::float8`: PostgreSQL reads it back to the same
 * double. `-0` travels as "0".
 */
export function float8Param(value: number): string {
  return String(value);
}

/** SQL that projects a float8 column as the 16 hex digits of its IEEE 754 bits, exact whatever `extra_float_digits` says. */
export function float8Bits(column: string): string {
  return `encode(float8send(${column}), 'hex') as ${column}`;
}

/** A column projected by {@link float8Bits}: SQL NULL → undefined, otherwise the double, bit for bit. */
export function float8Column(value: unknown, column: string): number | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value !== "string" || !/^[0-9a-f]{16}$/.test(value)) throw new Error(`Column "${column}" must be projected as float8 bits`);
  const view = new DataView(new ArrayBuffer(8));
  // float8send writes network byte order, DataView's default.
  for (let i = 0; i < 8; i++) view.setUint8(i, Number.parseInt(value.slice(2 * i, 2 * i + 2), 16));
  return view.getFloat64(0);
}
