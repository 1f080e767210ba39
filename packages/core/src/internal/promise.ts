export function isPromiseLike<T>(value: unknown): value is PromiseLike<T> {
  return typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";
}

/** A monotonic clock for deadlines; `now()` from options never drives timers (docs/architecture/spec/core.md#core-15-item-12). */
export const monotonicNow = (): number => performance.now();

/** The longest delay a timer holds: Node fires a longer one after 1 ms (with a TimeoutOverflowWarning), browsers at once. */
export const MAX_TIMER_DELAY_MS = 2_147_483_647;

/** `ms` capped at the longest delay a timer holds: a 30-day timeout waits 24.8 days rather than 1 ms. */
export function timerDelay(ms: number): number {
  return ms > MAX_TIMER_DELAY_MS ? MAX_TIMER_DELAY_MS : ms;
}

/** Resolves after `ms` on an unref'd timer, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, timerDelay(ms));
    (timer as { unref?: () => void }).unref?.();
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
