// Interleaved measurement: subject and baseline alternate within one process, medians over rounds (docs/architecture/spec/core.md#core-16).

export type Timed = () => unknown | Promise<unknown>;

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Time `iterations` sequential awaited calls; returns mean nanoseconds per call. */
export async function timeSequential(fn: Timed, iterations: number): Promise<number> {
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) await fn();
  return Number(process.hrtime.bigint() - start) / iterations;
}

export function timeSync(fn: () => unknown, iterations: number): number {
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) fn();
  return Number(process.hrtime.bigint() - start) / iterations;
}

/**
 * Runs each named subject once per round, in alternating order, and returns the per-subject medians. `collect`: a
 * full GC before each subject (when the process runs with `--expose-gc`), so no subject pays for the garbage the one
 * before it left; for subjects whose garbage differs by orders of magnitude (an SDK converting 100 schemas per list).
 */
export async function interleave(
  subjects: Record<string, () => Promise<number> | number>,
  rounds: number,
  options: { collect?: boolean } = {},
): Promise<Record<string, number>> {
  const names = Object.keys(subjects);
  const samples: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  const gc = options.collect ? (globalThis as { gc?: () => void }).gc : undefined;
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? names : [...names].reverse();
    for (const name of order) {
      gc?.();
      samples[name]!.push(await subjects[name]!());
    }
  }
  return Object.fromEntries(names.map((n) => [n, median(samples[n]!)]));
}
