/** How much one statement of the group commit may carry. */
export type GroupCommitBounds = {
  /** Rows per statement. */
  maxRows: number;
  /** Bind parameters per statement, every row counted at the width of the widest row it travels with. */
  maxParams: number;
};

export type GroupCommit = {
  /** Queues one row; the promise settles when the statement carrying it settles, with that statement's outcome. */
  write(params: unknown[]): Promise<void>;
  /** Resolves once every row handed to `write` before this call has settled; never rejects. */
  settled(): Promise<void>;
};

type Entry = { params: unknown[]; resolve: () => void; reject: (err: unknown) => void };

// Setting the first statement off after the current turn lets the rows one turn produces share it (an
// execution's `requested` and `started` are emitted in one turn); a macrotask, so a flood of microtasks cannot hold it.
// Taken when the module loads: a test that fakes timers afterwards must not stall audit writes (and strict calls).
const immediate = globalThis.setImmediate;
const nextTurn: (run: () => void) => void = typeof immediate === "function" ? (run) => void immediate(run) : (run) => void setTimeout(run, 0);

/**
 * Group commit for rows that must be durable before their promise resolves (docs/architecture/spec/postgres.md#postgres-7-1):
 * one statement in flight at a time; rows that arrive meanwhile queue, and when it returns the queue goes in the
 * next statement, as many rows as `bounds` allow. At low load a row travels alone; at high load many share one
 * round trip. Rows are written in the order they arrive, so a chain's events keep their order, and a failed
 * statement rejects exactly the rows it carried.
 */
export function createGroupCommit(bounds: GroupCommitBounds, insert: (rows: unknown[][]) => Promise<unknown>): GroupCommit {
  let queue: Entry[] = [];
  let busy = false;
  // Rows handed in and rows settled, counted: rows settle in arrival order, so `settled()` waits for a count.
  let received = 0;
  let done = 0;
  let waiters: { until: number; wake: () => void }[] = [];

  const take = (): Entry[] => {
    let width = 0;
    let count = 0;
    for (const entry of queue) {
      const nextWidth = Math.max(width, entry.params.length);
      if (count > 0 && (count + 1 > bounds.maxRows || (count + 1) * nextWidth > bounds.maxParams)) break;
      width = nextWidth;
      count++;
    }
    const taken = count === queue.length ? queue : queue.slice(0, count);
    queue = count === queue.length ? [] : queue.slice(count);
    return taken;
  };

  const finish = (taken: Entry[]) => {
    done += taken.length;
    busy = false;
    if (waiters.length > 0) {
      const due = waiters.filter((w) => w.until <= done);
      waiters = waiters.filter((w) => w.until > done);
      for (const w of due) w.wake();
    }
    if (queue.length > 0) send();
  };

  const send = () => {
    if (busy || queue.length === 0) return;
    busy = true;
    const taken = take();
    let written: Promise<unknown>;
    try {
      written = insert(taken.map((entry) => entry.params));
    } catch (err) {
      written = Promise.reject(err);
    }
    written.then(
      () => {
        for (const entry of taken) entry.resolve();
        finish(taken);
      },
      (err: unknown) => {
        for (const entry of taken) entry.reject(err);
        finish(taken);
      },
    );
  };

  return {
    write(params) {
      return new Promise<void>((resolve, reject) => {
        queue.push({ params, resolve, reject });
        received++;
        // The first row into an idle writer sets the next statement off; later ones ride along.
        if (!busy && queue.length === 1) nextTurn(send);
      });
    },
    settled() {
      if (done >= received) return Promise.resolve();
      const until = received;
      return new Promise<void>((wake) => waiters.push({ until, wake }));
    },
  };
}
