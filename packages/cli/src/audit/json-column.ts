/**
 * A jsonb column whose text did not parse (someone changed the column's type and wrote into it). It stands in for the
 * value so the row is still verified, and reported, rather than failing the whole read: it has no canonical JSON, so
 * the record it sits in never matches its hash (modified), and a checkpoint holding it is malformed (forged).
 */
export class UnreadableJson {
  constructor(readonly text: string) {}
}

export function parseJsonColumn(value: unknown): unknown {
  const text = String(value);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return new UnreadableJson(text);
  }
}

/** An export line keeps the column's text, marked, so the offline verify reports the same row. */
export function exportReplacer(_key: string, value: unknown): unknown {
  return value instanceof UnreadableJson ? { unreadableJson: value.text } : value;
}
