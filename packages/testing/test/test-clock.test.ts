import { describe, expect, it } from "vitest";
import { testClock } from "../src/index.js";

describe("testClock", () => {
  it("starts at 2026-01-01T00:00:00.000Z by default and returns a fresh Date on each call", () => {
    const clock = testClock();
    const first = clock.now();
    expect(first.toISOString()).toBe("2026-01-01T00:00:00.000Z");
    first.setTime(0);
    expect(clock.now().toISOString()).toBe("2026-01-01T00:00:00.000Z");
    expect(clock.now()).not.toBe(clock.now());
  });

  it("advances by milliseconds and by ms, s, m, h and d durations; methods work detached", () => {
    const clock = testClock("2030-01-01T00:00:00.000Z");
    const { now, advance, set } = clock;
    advance(250);
    advance("500ms");
    expect(now().toISOString()).toBe("2030-01-01T00:00:00.750Z");
    advance("30s");
    advance("15m");
    advance("2h");
    advance("1d");
    expect(now().toISOString()).toBe("2030-01-02T02:15:30.750Z");
    advance("1.5s");
    expect(now().toISOString()).toBe("2030-01-02T02:15:32.250Z");
    set("2031-06-01T12:00:00.000Z");
    expect(now().toISOString()).toBe("2031-06-01T12:00:00.000Z");
  });

  it("rejects bad input with a TypeError and keeps its time", () => {
    expect(() => testClock("not a date")).toThrow(TypeError);
    expect(() => testClock(42 as never)).toThrow(TypeError);
    const clock = testClock("2030-01-01T00:00:00.000Z");
    for (const bad of [-1, Number.NaN, Number.POSITIVE_INFINITY, "15 minutes", "1w", "m", "-5s", "", null, undefined]) {
      expect(() => clock.advance(bad as never), String(bad)).toThrow(TypeError);
    }
    expect(() => clock.set("yesterday")).toThrow(/ISO 8601/);
    expect(() => clock.set(undefined as never)).toThrow(TypeError);
    expect(clock.now().toISOString()).toBe("2030-01-01T00:00:00.000Z");
  });
});
