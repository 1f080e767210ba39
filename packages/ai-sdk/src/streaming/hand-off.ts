import { composeSignals } from "../signal.js";

/**
 * One streaming call, started by the hand-off: `onEvent` receives each event (the call waits on the promise it
 * returns before pulling the next), `signal` ends the call, and the promise resolves with the final envelope.
 */
export type StreamingRun<R> = (onEvent: (event: unknown) => Promise<void>, signal: AbortSignal) => Promise<R>;

export type HandOffOptions<R> = {
  /** The preliminary envelope of one event. */
  preliminary(event: unknown): R;
  /** The envelope when `run` rejects (it should not): the concealed one. */
  rejected(): R;
  /** The host's and the loop's signals, composed by the caller; the hand-off adds its own stop. */
  signal: AbortSignal | undefined;
  /**
   * Whether the final envelope says no more than the last preliminary one (a completed stream's output is its last
   * event): then it is not yielded again, since the SDK takes the last value yielded as the final result.
   */
  repeats?(envelope: R, lastEvent: unknown): boolean;
};

type Slot = { event: unknown; taken(): void; refused(error: unknown): void };

/** What the runtime's pending `onEvent` promise rejects with once the SDK stopped taking events. */
const CONSUMER_GONE = Object.freeze(new Error("The AI SDK stopped reading this tool's results."));

/**
 * A streaming call as the async iterable an AI SDK tool's `execute` returns: each event as a preliminary result,
 * then the final envelope. A one-slot hand-off: the runtime's `onEvent` promise settles only when the SDK asks for
 * the next value, so the handler is never pulled ahead of the SDK and at most one event waits here. A consumer
 * that stops early (`return()`, a `break` in `for await`) aborts the call and refuses the waiting event, so the
 * runtime returns the handler's iterator; the call settles on its own and nothing more is read.
 */
export async function* handOff<R>(run: StreamingRun<R>, options: HandOffOptions<R>): AsyncGenerator<R, void, undefined> {
  const stop = new AbortController();
  const composed = composeSignals(options.signal, stop.signal);
  let waiting: Slot | undefined;
  let settled: { envelope: R } | undefined;
  let stopped = false;
  let wake: (() => void) | undefined;
  const nudge = () => {
    const resume = wake;
    wake = undefined;
    resume?.();
  };

  const onEvent = (event: unknown) =>
    new Promise<void>((taken, refused) => {
      if (stopped) return refused(CONSUMER_GONE);
      waiting = { event, taken, refused };
      nudge();
    });
  // Never rejects: a rejected run becomes the concealed envelope, and the signals are released once it settles.
  const outcome = Promise.resolve()
    .then(() => run(onEvent, composed.signal!))
    .then(
      (envelope) => void (settled = { envelope }),
      () => void (settled = { envelope: options.rejected() }),
    )
    .finally(() => {
      composed.release();
      nudge();
    });

  let handed: Slot | undefined;
  let last: { event: unknown } | undefined;
  try {
    for (;;) {
      if (settled !== undefined) {
        // The result is authoritative: an event still offered after it (the runtime stopped waiting) is let go.
        waiting?.taken();
        if (last === undefined || options.repeats?.(settled.envelope, last.event) !== true) yield settled.envelope;
        return;
      }
      if (waiting !== undefined) {
        handed = waiting;
        waiting = undefined;
        last = { event: handed.event };
        yield options.preliminary(handed.event);
        // The SDK asked for the next value: only now may the runtime pull the next event.
        handed.taken();
        handed = undefined;
        continue;
      }
      await new Promise<void>((resume) => (wake = resume));
    }
  } finally {
    if (settled === undefined) {
      stopped = true;
      handed?.refused(CONSUMER_GONE);
      waiting?.refused(CONSUMER_GONE);
      stop.abort(new DOMException("The AI SDK stopped reading this tool's results.", "AbortError"));
      void outcome;
    }
  }
}
