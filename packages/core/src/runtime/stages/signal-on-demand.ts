/**
 * Where making a signal is dear, stage 11 hands every middleware and the handler a signal made on first read
 * (issue 28): on Node 20 an AbortController costs ~3 µs (it re-prototypes an EventTarget per signal), more than the
 * raw call itself, and most handlers never look at it. Node 22 made it ~10× cheaper and Node 24 cheaper still, below
 * what the wrapper costs, so there (and off Node) the attempt keeps its eager controller. Both show the same signal.
 */
export const SIGNAL_ON_DEMAND: boolean = nodeMajor() <= 21;

/** What the handler's on-demand signal reads: the attempt that owns it (attempt.ts). */
export type AttemptSignalSource = { handlerSignal(): AbortSignal };

function nodeMajor(): number {
  const version = (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node;
  return version === undefined ? Number.POSITIVE_INFINITY : Number.parseInt(version, 10);
}

/**
 * The attempt rides on its own frozen copy of the `path` array, which oRPC passes along unchanged, in a private
 * field stamped onto the copy: no key, symbol or descriptor shows it, so iterating, spreading, comparing, reflecting on
 * or serializing the path sees nothing new, and `context` is untouched.
 * (A WeakMap keyed by the copy did the same, but its ephemerons tripled GC time; a symbol property added with
 * defineProperty, after `slice()` of the frozen plan path, cost ~0.8 µs per call on Node 20: issue 28.)
 */
class AttemptStamp {
  constructor(target: object) {
    return target;
  }
}

class StampedPath extends AttemptStamp {
  readonly #source: AttemptSignalSource;

  private constructor(path: string[], source: AttemptSignalSource) {
    super(path);
    this.#source = source;
  }

  static copy(path: readonly string[], source: AttemptSignalSource): string[] {
    // An index loop: slicing a frozen array takes V8's slow path.
    const own = new Array<string>(path.length);
    for (let i = 0; i < path.length; i++) own[i] = path[i]!;
    new StampedPath(own, source);
    return Object.freeze(own) as string[];
  }

  static sourceOf(path: unknown): AttemptSignalSource | undefined {
    return typeof path === "object" && path !== null && #source in path ? (path as StampedPath).#source : undefined;
  }
}

export const bindAttemptPath = StampedPath.copy;

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
  const source = StampedPath.sourceOf(options.path);
  return source === undefined ? options : (new OnDemandSignalOptions(options, source) as unknown as Record<string, unknown>);
}
