/** A duration `advance` understands besides plain milliseconds. */
export type TestDuration = `${number}${"ms" | "s" | "m" | "h" | "d"}`;

/** A settable clock for the runtime's `now` (timestamps and expiry), never for timers (docs/architecture/spec/core.md#core-5). */
export type TestClock = {
  /** A fresh `Date` at the current test instant. */
  now(): Date;
  /** Moves forward by milliseconds or a duration such as `"500ms"`, `"30s"`, `"15m"`, `"2h"`, `"1d"`. */
  advance(by: number | TestDuration): void;
  /** Jumps to an ISO 8601 instant. */
  set(iso: string): void;
};

const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/;

/**
 * A clock that moves only when told to. Its methods need no `this`, so `clock.now` can be passed around.
 *
 * @example
 * import { testClock } from "@orpc-agent/testing";
 * const clock = testClock("2026-01-01T00:00:00.000Z");
 * clock.advance("16m"); // past the default 15-minute approval expiry
 */
export function testClock(startIso = "2026-01-01T00:00:00.000Z"): TestClock {
  let current = parseInstant(startIso, "testClock(startIso)");
  return {
    now: () => new Date(current),
    advance: (by) => {
      current += parseDuration(by);
    },
    set: (iso) => {
      current = parseInstant(iso, "clock.set(iso)");
    },
  };
}

function parseInstant(iso: unknown, where: string): number {
  const ms = typeof iso === "string" ? Date.parse(iso) : Number.NaN;
  if (Number.isNaN(ms)) throw new TypeError(`${where}: expected an ISO 8601 instant such as "2026-01-01T00:00:00.000Z", got ${JSON.stringify(iso)}.`);
  return ms;
}

function parseDuration(by: unknown): number {
  if (typeof by === "number" && Number.isFinite(by) && by >= 0) return by;
  const match = typeof by === "string" ? DURATION.exec(by) : null;
  if (match === null) {
    throw new TypeError(`clock.advance(by): expected milliseconds >= 0 or a duration like "500ms", "30s", "15m", "2h", "1d", got ${JSON.stringify(by)}.`);
  }
  return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
}
