// docs/architecture/spec/adapters.md#adapters-1-6, docs/architecture/spec/adapters.md#adapters-2-7 (9): one signal passes through as itself; two compose into one controller whose
// listeners are removed when the call settles; never AbortSignal.any (it retains its sources on Node 20).
import { getEventListeners } from "node:events";
import { afterEach, describe, expect, it, vi } from "vitest";
import { composeSignals } from "../src/signal.js";

const listeners = (signal: AbortSignal) => getEventListeners(signal, "abort").length;

afterEach(() => {
  vi.restoreAllMocks();
});

describe("composeSignals", () => {
  it("passes nothing when there is no signal", () => {
    expect(composeSignals(undefined, undefined).signal).toBeUndefined();
  });

  it("passes a single signal through as the same object, from either side, without listening to it", () => {
    const only = new AbortController().signal;
    expect(composeSignals(only, undefined).signal).toBe(only);
    expect(composeSignals(undefined, only).signal).toBe(only);
    expect(composeSignals(only, only).signal).toBe(only);
    expect(listeners(only)).toBe(0);
  });

  it("composes two signals into a third, aborted by whichever aborts first, with that source's reason", () => {
    for (const which of [0, 1] as const) {
      const sources = [new AbortController(), new AbortController()];
      const { signal } = composeSignals(sources[0]!.signal, sources[1]!.signal);
      expect(signal).not.toBe(sources[0]!.signal);
      expect(signal).not.toBe(sources[1]!.signal);
      expect(signal!.aborted).toBe(false);
      const reason = new Error(`source ${which}`);
      sources[which]!.abort(reason);
      expect(signal!.aborted).toBe(true);
      expect(signal!.reason).toBe(reason);
      // The first abort already detached both listeners.
      expect(listeners(sources[0]!.signal) + listeners(sources[1]!.signal)).toBe(0);
    }
  });

  it("adds one listener per source and removes both on release", () => {
    const a = new AbortController();
    const b = new AbortController();
    const composed = composeSignals(a.signal, b.signal);
    expect([listeners(a.signal), listeners(b.signal)]).toEqual([1, 1]);
    composed.release();
    expect([listeners(a.signal), listeners(b.signal)]).toEqual([0, 0]);
    a.abort();
    expect(composed.signal!.aborted).toBe(false);
  });

  it("is aborted at once, with the reason, when a source already is, and listens to nothing", () => {
    const a = new AbortController();
    const b = new AbortController();
    b.abort("gone");
    const { signal } = composeSignals(a.signal, b.signal);
    expect(signal!.aborted).toBe(true);
    expect(signal!.reason).toBe("gone");
    expect(listeners(a.signal)).toBe(0);
  });

  it("never uses AbortSignal.any or AbortSignal.timeout", () => {
    const any = vi.spyOn(AbortSignal, "any");
    const timeout = vi.spyOn(AbortSignal, "timeout");
    const a = new AbortController();
    const composed = composeSignals(a.signal, new AbortController().signal);
    a.abort();
    composed.release();
    expect(any).not.toHaveBeenCalled();
    expect(timeout).not.toHaveBeenCalled();
  });
});
