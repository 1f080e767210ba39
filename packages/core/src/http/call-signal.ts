// core/http bundles for browsers on its own (no core internals), so the timer cap is restated here: a delay above
// 2^31 − 1 ms would fire after 1 ms.
const MAX_TIMER_DELAY_MS = 2_147_483_647;

/**
 * One controller per call composing the client's signal, the call's signal and the timeout: one `unref`'d
 * timer and one listener per source, all released by `release()`. Remembers which source fired first.
 */
export type CallSignal = {
  readonly signal: AbortSignal;
  /** `"timeout"` or `"aborted"` once fired, else `undefined`. */
  readonly fired: "timeout" | "aborted" | undefined;
  release(): void;
};

export function composeCallSignal(sources: readonly (AbortSignal | undefined)[], timeoutMs: number): CallSignal {
  const controller = new AbortController();
  let fired: "timeout" | "aborted" | undefined;
  const listeners: [AbortSignal, () => void][] = [];
  for (const source of sources) {
    if (source === undefined) continue;
    if (source.aborted) {
      fired ??= "aborted";
      controller.abort(source.reason);
      continue;
    }
    const onAbort = () => {
      fired ??= "aborted";
      controller.abort(source.reason);
    };
    source.addEventListener("abort", onAbort, { once: true });
    listeners.push([source, onAbort]);
  }
  const timer = setTimeout(() => {
    fired ??= "timeout";
    controller.abort(new DOMException("The request timed out.", "TimeoutError"));
  }, Math.min(timeoutMs, MAX_TIMER_DELAY_MS));
  (timer as { unref?: () => void }).unref?.();
  return {
    signal: controller.signal,
    get fired() {
      return fired;
    },
    release() {
      clearTimeout(timer);
      for (const [source, onAbort] of listeners) source.removeEventListener("abort", onAbort);
    },
  };
}
