import type { ProgressUpdate, RemoteExecutionResult, RemoteStreamFrame } from "../../client/types.js";
import type { StreamHooks } from "../service/types.js";

/** One journaled call, started with the hooks the stream hands it. */
export type StreamedCall = (hooks: StreamHooks) => Promise<RemoteExecutionResult>;

export type StreamFrameOptions = {
  /** The client asked for the events (`events: true`). */
  events: boolean;
  /** The client asked for progress (`progress: true`). */
  progress: boolean;
  /**
   * When the client goes away: `true` (reads under `abortOnDisconnect`) refuses the waiting event, so the runtime
   * ends the stream as cancelled; `false` (writes) lets the call run to its end, taking its events and dropping them,
   * so the journal records an outcome `reconcile` can read.
   */
  cancelOnDetach: boolean;
};

const DETACHED = Object.freeze(new Error("The client stopped reading the stream."));

/**
 * The streaming procedures' event iterator: the call's events and progress as frames, its envelope as the return
 * value (oRPC's `done` event). One slot: the runtime's `onEvent` promise settles when oRPC pulls the next frame,
 * which it does as the response body is read, so a slow client holds the handler back instead of filling memory.
 * Progress waits in a slot of its own, the latest report only, and none follows the result.
 */
export async function* streamFrames(call: StreamedCall, o: StreamFrameOptions): AsyncGenerator<RemoteStreamFrame, RemoteExecutionResult, undefined> {
  type Slot = { event: unknown; taken(): void; refused(error: unknown): void };
  let waiting: Slot | undefined;
  let progress: ProgressUpdate | undefined;
  let settled: { result: RemoteExecutionResult } | { error: unknown } | undefined;
  let detached = false;
  let wake: (() => void) | undefined;
  const nudge = () => {
    const resume = wake;
    wake = undefined;
    resume?.();
  };
  const letGo = (slot: Slot | undefined) => {
    if (slot === undefined) return;
    if (o.cancelOnDetach) slot.refused(DETACHED);
    else slot.taken();
  };

  const hooks: StreamHooks = {};
  if (o.events) {
    hooks.onEvent = (event) =>
      new Promise<void>((taken, refused) => {
        const slot = { event, taken, refused };
        if (detached) return letGo(slot);
        waiting = slot;
        nudge();
      });
  }
  if (o.progress) {
    hooks.onProgress = (update) => {
      if (detached || settled !== undefined) return;
      progress = update;
      nudge();
    };
  }
  // Never rejects; what the call threw is rethrown from the iterator (oRPC answers it as an error event).
  const outcome = Promise.resolve()
    .then(() => call(hooks))
    .then(
      (result) => void (settled = { result }),
      (error: unknown) => void (settled = { error }),
    )
    .finally(nudge);

  let handed: Slot | undefined;
  try {
    for (;;) {
      if (settled !== undefined) {
        waiting?.taken();
        if ("error" in settled) throw settled.error;
        // A report the runtime delivered before deciding the result (its last one) still goes first.
        if (progress !== undefined) {
          const update = progress;
          progress = undefined;
          yield progressFrame(update);
        }
        return settled.result;
      }
      if (waiting !== undefined) {
        handed = waiting;
        waiting = undefined;
        yield { type: "event", event: handed.event };
        handed.taken();
        handed = undefined;
        continue;
      }
      if (progress !== undefined) {
        const update = progress;
        progress = undefined;
        yield progressFrame(update);
        continue;
      }
      await new Promise<void>((resume) => (wake = resume));
    }
  } finally {
    if (settled === undefined) {
      detached = true;
      progress = undefined;
      letGo(handed);
      letGo(waiting);
      void outcome;
    }
  }
}

function progressFrame(update: ProgressUpdate): RemoteStreamFrame {
  const frame: RemoteStreamFrame = { type: "progress", progress: update.progress };
  if (update.total !== undefined) frame.total = update.total;
  if (update.message !== undefined) frame.message = update.message;
  return frame;
}
