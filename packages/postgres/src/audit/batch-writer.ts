import type { BatchSettings } from "./batch-options.js";

type Entry = { params: unknown[]; resolve: () => void; reject: (err: unknown) => void };

export type BatchWriter = {
  /** Buffers one row; the promise settles when the batch holding it is written (docs/architecture/spec/postgres.md#postgres-7-2 rule 3). */
  enqueue(params: unknown[]): Promise<void>;
  /** Writes the buffer now and waits for every batch already in flight; rejects with a write error. */
  flush(): Promise<void>;
};

/**
 * The buffering half of the audit sink (docs/architecture/spec/postgres.md#postgres-7-2 rules 2–4): a flush is triggered by
 * reaching `size`, by `flushMs` after the first row entered an empty buffer, or explicitly.
 */
export function createBatchWriter(settings: BatchSettings, write: (rows: unknown[][]) => Promise<unknown>): BatchWriter {
  let buffer: Entry[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const writing = new Set<Promise<void>>();

  // Takes the whole buffer at once, so concurrent flushes write disjoint sets.
  const writeBuffer = (): Promise<void> => {
    if (timer !== undefined) {
      clearTimeout(timer);
      timer = undefined;
    }
    if (buffer.length === 0) return Promise.resolve();
    const taken = buffer;
    buffer = [];
    const done = write(taken.map((entry) => entry.params)).then(
      () => {
        for (const entry of taken) entry.resolve();
      },
      (err: unknown) => {
        // Each event's own promise rejects, so core routes every failure to onSinkError with its event.
        for (const entry of taken) entry.reject(err);
        throw err;
      },
    );
    writing.add(done);
    const forget = () => void writing.delete(done);
    done.then(forget, forget);
    return done;
  };

  // Internal flushes swallow their rejection: the events' promises already carry it.
  const flushInBackground = () => void writeBuffer().catch(() => {});

  return {
    enqueue(params) {
      return new Promise<void>((resolve, reject) => {
        buffer.push({ params, resolve, reject });
        if (buffer.length >= settings.size) {
          flushInBackground();
        } else if (buffer.length === 1) {
          // One timer per buffer, unref'd so a quiet sink never holds the process open.
          timer = setTimeout(flushInBackground, settings.flushMs);
          (timer as { unref?: () => void }).unref?.();
        }
      });
    },

    async flush() {
      const own = writeBuffer();
      const settled = await Promise.allSettled([...writing]);
      await own;
      const failure = settled.find((result): result is PromiseRejectedResult => result.status === "rejected");
      if (failure) throw failure.reason;
    },
  };
}
