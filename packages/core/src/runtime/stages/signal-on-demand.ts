import type { AttemptSignalSource } from "./attempt.js";

/**
 * Stage 11 hands every middleware and the handler a signal made on first read (issue 28): an AbortController costs
 * ~3 µs and ~0.7 KB on Node 20, more than the raw call, and most handlers never look at it. The attempt is found
 * through the `path` array oRPC passes along unchanged, one copy per attempt, so nothing extra shows in `context`.
 */
const sources = new WeakMap<readonly string[], AttemptSignalSource>();

export function bindAttemptPath(path: readonly string[], source: AttemptSignalSource): readonly string[] {
  const own = Object.freeze(path.slice());
  sources.set(own, source);
  return own;
}

/** What a middleware or the handler receives: oRPC's options with `signal` as an own accessor over the attempt's. */
class OnDemandSignalOptions {
  readonly #source: AttemptSignalSource;

  constructor(options: Record<string, unknown>, source: AttemptSignalSource) {
    this.#source = source;
    for (const key of Object.keys(options)) if (key !== "signal") (this as Record<string, unknown>)[key] = options[key];
    Object.defineProperty(this, "signal", SIGNAL);
  }

  static signalOf(options: OnDemandSignalOptions): AbortSignal {
    return options.#source.handlerSignal();
  }
}

const SIGNAL: PropertyDescriptor = {
  get(this: OnDemandSignalOptions) {
    return OnDemandSignalOptions.signalOf(this);
  },
  enumerable: true,
  configurable: true,
};

/** The options wrapper the plan's executable applies; a call that did not come from an attempt passes through. */
export function withOnDemandSignal(options: Record<string, unknown>): Record<string, unknown> {
  const source = sources.get(options.path as readonly string[]);
  return source === undefined ? options : (new OnDemandSignalOptions(options, source) as unknown as Record<string, unknown>);
}
