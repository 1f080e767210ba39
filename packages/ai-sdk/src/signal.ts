/** The signal one invocation gets, and what to call when it settles. */
export type ComposedSignal = { signal: AbortSignal | undefined; release: () => void };

const NOTHING_TO_RELEASE = () => {};

/**
 * docs/architecture/spec/adapters.md#adapters-1-6: a single signal passes through as the same object; two compose into one `AbortController`
 * aborted with the first source's reason, whose listeners `release` removes. Never `AbortSignal.any`: on Node 20
 * it retains its sources (docs/architecture/spec/core.md#core-16), and a long-lived option-level signal would pin every call.
 */
export function composeSignals(first: AbortSignal | undefined, second: AbortSignal | undefined): ComposedSignal {
  if (first === undefined || second === undefined) return { signal: first ?? second, release: NOTHING_TO_RELEASE };
  if (first === second) return { signal: first, release: NOTHING_TO_RELEASE };

  const controller = new AbortController();
  const sources = [first, second];
  const onAbort = (event: Event) => {
    release();
    controller.abort((event.target as AbortSignal).reason);
  };
  function release() {
    for (const source of sources) source.removeEventListener("abort", onAbort);
  }

  const alreadyAborted = sources.find((source) => source.aborted);
  if (alreadyAborted !== undefined) {
    controller.abort(alreadyAborted.reason);
    return { signal: controller.signal, release: NOTHING_TO_RELEASE };
  }
  for (const source of sources) source.addEventListener("abort", onAbort);
  return { signal: controller.signal, release };
}
