import type { MemoryLimits } from "./memory-limits.js";

type Limits = MemoryLimits[keyof MemoryLimits];

/**
 * Per-process memory a client can grow (pending retries, declared capabilities), bounded twice and keyed by
 * `principalKey` (SI-3). Each principal keeps at most `perPrincipal` entries, its least recently set giving way to its
 * newest: a principal's flood costs only its own entries. The whole map keeps at most `total`: past it, the principal
 * holding the most gives way (its least recently set entry), so no principal pays while another holds more.
 */
export class PrincipalBoundedMap<V> {
  readonly #byPrincipal = new Map<string, Map<string, V>>();
  // Principals by how many entries they hold, least recently set first within a count: the largest holder is found
  // without scanning every principal.
  readonly #byCount = new Map<number, Set<string>>();
  readonly #limits: Limits;
  #size = 0;
  #largest = 0;

  constructor(limits: Limits) {
    this.#limits = limits;
  }

  /** How many entries the map holds, all principals together. */
  get size(): number {
    return this.#size;
  }

  get(principal: string, key: string): V | undefined {
    return this.#byPrincipal.get(principal)?.get(key);
  }

  set(principal: string, key: string, value: V): void {
    const entries = this.#byPrincipal.get(principal) ?? new Map<string, V>();
    if (entries.has(key)) {
      // Refreshed: the newest of its principal's entries, and its principal the most recently set of its count.
      entries.delete(key);
      entries.set(key, value);
      this.#move(principal, entries.size, entries.size);
      return;
    }
    if (entries.size >= this.#limits.perPrincipal) this.#removeOldest(principal, entries);
    this.#byPrincipal.set(principal, entries);
    entries.set(key, value);
    this.#size++;
    this.#move(principal, entries.size - 1, entries.size);
    while (this.#size > this.#limits.total) this.#evictFromLargest();
  }

  /** Replaces an existing entry's value without refreshing its place in the eviction order; false when absent. */
  replace(principal: string, key: string, value: V): boolean {
    const entries = this.#byPrincipal.get(principal);
    if (entries === undefined || !entries.has(key)) return false;
    entries.set(key, value);
    return true;
  }

  delete(principal: string, key: string): void {
    const entries = this.#byPrincipal.get(principal);
    if (entries !== undefined && entries.has(key)) this.#remove(principal, entries, key);
  }

  #evictFromLargest(): void {
    while (this.#largest > 0 && (this.#byCount.get(this.#largest)?.size ?? 0) === 0) this.#largest--;
    const principal = this.#byCount.get(this.#largest)?.values().next().value;
    if (principal === undefined) return;
    this.#removeOldest(principal, this.#byPrincipal.get(principal)!);
  }

  #removeOldest(principal: string, entries: Map<string, V>): void {
    const oldest = entries.keys().next();
    if (oldest.done !== true) this.#remove(principal, entries, oldest.value);
  }

  #remove(principal: string, entries: Map<string, V>, key: string): void {
    entries.delete(key);
    this.#size--;
    this.#move(principal, entries.size + 1, entries.size);
    if (entries.size === 0) this.#byPrincipal.delete(principal);
  }

  /** Re-files `principal` from holding `from` entries to holding `to`, last of its new count. */
  #move(principal: string, from: number, to: number): void {
    if (from > 0) {
      const bucket = this.#byCount.get(from)!;
      bucket.delete(principal);
      if (bucket.size === 0) this.#byCount.delete(from);
    }
    if (to === 0) return;
    let bucket = this.#byCount.get(to);
    if (bucket === undefined) this.#byCount.set(to, (bucket = new Set()));
    bucket.add(principal);
    if (to > this.#largest) this.#largest = to;
  }
}
