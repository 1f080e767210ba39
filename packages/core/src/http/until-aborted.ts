/**
 * Waits for what a stream consumer's `onEvent` returned, unless `signal` aborts first: a consumer that never settles
 * must not outlive the call's abort or timeout (SI-12). Rejects with what the consumer rejected with. A consumer
 * promise still pending after the abort is left to settle on its own, its outcome ignored.
 */
export function untilAborted(consumed: unknown, signal: AbortSignal): Promise<"taken" | "aborted"> {
  if (typeof (consumed as { then?: unknown } | null)?.then !== "function") return Promise.resolve("taken");
  if (signal.aborted) return Promise.resolve("aborted");
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve("aborted");
    signal.addEventListener("abort", onAbort, { once: true });
    Promise.resolve(consumed).then(
      () => {
        signal.removeEventListener("abort", onAbort);
        resolve("taken");
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
