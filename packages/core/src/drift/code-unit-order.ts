/** Orders strings by UTF-16 code unit, never by locale, so snapshots sort the same everywhere (docs/architecture/spec/cli.md#cli-6-1). */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A sorted copy. */
export function sortedByCodeUnit<T extends string>(values: readonly T[]): T[] {
  return [...values].sort(compareCodeUnits);
}
