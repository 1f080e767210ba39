/**
 * Pairs two name lists by name and occurrence index, so duplicates pair up in order (docs/architecture/spec/cli.md#cli-7-3,
 * decided there): the second "a" before pairs with the second "a" after. `reordered` is true when the
 * paired names appear in a different relative order.
 */
export function pairByOccurrence(
  before: readonly string[],
  after: readonly string[],
): { removed: string[]; added: string[]; reordered: boolean; pairs: [number, number][] } {
  const b = occurrenceKeys(before);
  const a = occurrenceKeys(after);
  const afterIndex = new Map(a.map((key, index) => [key, index]));
  const beforeKeys = new Set(b);

  const removed: string[] = [];
  const pairs: [number, number][] = [];
  b.forEach((key, index) => {
    const match = afterIndex.get(key);
    if (match === undefined) removed.push(before[index] as string);
    else pairs.push([index, match]);
  });
  const added = after.filter((_, index) => !beforeKeys.has(a[index] as string));
  // Pairs are in `before` order; any descent in the `after` indexes is a reorder.
  const reordered = pairs.some(([, match], index) => index > 0 && match < (pairs[index - 1] as [number, number])[1]);
  return { removed, added, reordered, pairs };
}

function occurrenceKeys(names: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return names.map((name) => {
    const occurrence = seen.get(name) ?? 0;
    seen.set(name, occurrence + 1);
    return `${occurrence}\u0000${name}`;
  });
}
