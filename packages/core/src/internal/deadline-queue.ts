import { monotonicNow, timerDelay } from "./promise.js";

/** What a queue holds: the links live on the entry itself, so a pending deadline costs a few fields, not a timer. */
export interface DeadlineEntry {
  /** Monotonic milliseconds, rounded up: an entry never expires before its full duration. */
  due: number;
  prevDue: DeadlineEntry | undefined;
  nextDue: DeadlineEntry | undefined;
  queue: DeadlineQueue | undefined;
  expire(): void;
}

/**
 * Every pending deadline of one duration, in the order they were added, which for one duration is the order they
 * fall due, behind a single unref'd timer for the earliest. Node keeps its own timers the same way; doing it here
 * saves the `Timeout` object (about 160 bytes) each call in flight would hold (issue 28). The monotonic clock
 * decides, as for policy deadlines: a timer that fires early re-arms for the rest.
 */
export class DeadlineQueue {
  private head: DeadlineEntry | undefined;
  private tail: DeadlineEntry | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly ms: number) {}

  add(entry: DeadlineEntry): void {
    entry.due = Math.ceil(monotonicNow()) + this.ms;
    entry.queue = this;
    entry.prevDue = this.tail;
    entry.nextDue = undefined;
    if (this.tail === undefined) {
      this.head = this.tail = entry;
      // An empty queue has no timer; a non-empty one already waits for an earlier entry.
      if (this.timer === undefined) this.arm(this.ms);
    } else {
      this.tail.nextDue = entry;
      this.tail = entry;
    }
  }

  /** Idempotent. The last entry out releases the timer, so nothing is left scheduled once every call settled. */
  remove(entry: DeadlineEntry): void {
    if (entry.queue !== this) return;
    const { prevDue, nextDue } = entry;
    if (prevDue === undefined) this.head = nextDue;
    else prevDue.nextDue = nextDue;
    if (nextDue === undefined) this.tail = prevDue;
    else nextDue.prevDue = prevDue;
    entry.queue = entry.prevDue = entry.nextDue = undefined;
    if (this.head === undefined && this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
  }

  fire(): void {
    this.timer = undefined;
    const now = monotonicNow();
    for (let entry = this.head; entry !== undefined && entry.due <= now; entry = this.head) {
      this.remove(entry);
      try {
        entry.expire();
      } catch (error) {
        // One entry's failure is still an uncaught error, as from its own timer, but cannot starve the rest.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
    // An entry added while expiring others (onto an emptied queue) armed its own timer.
    if (this.head !== undefined && this.timer === undefined) this.arm(Math.max(1, this.head.due - now));
  }

  private arm(ms: number): void {
    this.timer = setTimeout(fireQueue, timerDelay(ms), this);
    (this.timer as { unref?: () => void }).unref?.();
  }
}

function fireQueue(queue: DeadlineQueue): void {
  queue.fire();
}

const queues = new Map<number, DeadlineQueue>();

/** The shared queue for one duration; durations come from capability plans, so there are few. */
export function deadlineQueue(ms: number): DeadlineQueue {
  let queue = queues.get(ms);
  if (queue === undefined) queues.set(ms, (queue = new DeadlineQueue(ms)));
  return queue;
}
