import type { AttemptSignalSource } from "./attempt.js";

/**
 * Where making a signal is dear, stage 11 hands every middleware and the handler a signal made on first read
 * (issue 28): on Node 20 an AbortController costs ~3 µs (it re-prototypes an EventTarget per signal), more than the
 * raw call itself, and most handlers never look at it. Node 22 made it ~10× cheaper and Node 24 cheaper still, below
 * what the wrapper costs, so there (and off Node) the attempt keeps its eager controller. Both show the same signal.
 */
export const SIGNAL_ON_DEMAND: boolean = nodeMajor() <= 21;

function nodeMajor(): number {
  const version = (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node;
  return version === undefined ? Number.POSITIVE_INFINITY : Number.parseInt(version, 10);
}

/**
 * The attempt rides on its own frozen copy of the `path` array, which oRPC passes along unchanged, under a
 * module-private, non-enumerable symbol: iterating, spreading, comparing or serializing the path shows nothing new,
 * and `context` is untouched.
 * (A WeakMap keyed by the copy did the same, but its ephemerons tripled GC time in the profile.)
 */
const SOURCE = Symbol("orpc-agent.attempt");

type BoundPath = readonly string[] & { readonly [SOURCE]?: AttemptSignalSource };

export function bindAttemptPath(path: readonly string[], source: AttemptSignalSource): string[] {
  const own = path.slice();
  Object.defineProperty(own, SOURCE, { value: source });
  return Object.freeze(own) as string[];
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
  const source = (options.path as BoundPath | undefined)?.[SOURCE];
  return source === undefined ? options : (new OnDemandSignalOptions(options, source) as unknown as Record<string, unknown>);
}
