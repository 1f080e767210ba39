import type { ProgressUpdate } from "../../capability/types.js";
import { isPromiseLike, monotonicNow, timerDelay } from "../../internal/promise.js";

/** Longer messages are cut here: a progress line, not a payload channel. */
export const PROGRESS_MESSAGE_MAX = 1_000;

/**
 * One execution's progress, from its handler's `context.agent.reportProgress` to its own caller's `onProgress` and
 * nowhere else: each execution that asked gets its own channel. Updates are validated (finite numbers, `progress`
 * above the last accepted one as MCP requires, `message` a string cut at {@link PROGRESS_MESSAGE_MAX}), throttled to
 * one delivery per interval (the latest in between kept, delivered when the window ends) and never audited. Closing
 * delivers what is kept, then drops everything after: no update reaches the caller once the result is decided.
 * The caller's callback can neither throw into the handler nor leave an unhandled rejection.
 */
export class ProgressChannel {
  /** `context.agent.reportProgress` of this execution. */
  readonly report: (update: ProgressUpdate) => void;
  private last = Number.NEGATIVE_INFINITY;
  private kept: ProgressUpdate | undefined = undefined;
  /** Monotonic time from which the next update may go out at once. */
  private openAt = 0;
  private timer: ReturnType<typeof setTimeout> | undefined = undefined;
  private closed = false;
  /** The attempt whose `attemptReport` may still report (retried executions only). */
  private attempt = 0;

  constructor(
    private readonly deliver: (update: ProgressUpdate) => void,
    private readonly intervalMs: number,
  ) {
    this.report = (update) => this.accept(update);
  }

  /** Delivers the update kept, if any, and stops the channel. Idempotent. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    const kept = this.kept;
    this.kept = undefined;
    if (kept !== undefined) this.send(kept, 0);
  }

  /**
   * A retried execution's per-attempt `reportProgress`: it reports only until {@link endAttempt} (or the next
   * `attemptReport`), so a handler that outlives its attempt (it ignored its abort) reports nothing once the runtime
   * has moved on, and cannot raise the floor under the live attempt's progress (SI-12).
   */
  attemptReport(): (update: ProgressUpdate) => void {
    const attempt = ++this.attempt;
    return (update) => {
      if (attempt === this.attempt) this.accept(update);
    };
  }

  /** The current attempt ended: its `attemptReport` function goes quiet. */
  endAttempt(): void {
    this.attempt++;
  }

  /** The window ended: the latest update kept goes out. */
  flush(): void {
    this.timer = undefined;
    const kept = this.kept;
    this.kept = undefined;
    if (kept !== undefined && !this.closed) this.send(kept, monotonicNow());
  }

  private accept(update: unknown): void {
    if (this.closed) return;
    const valid = validProgress(update, this.last);
    if (valid === undefined) return;
    this.last = valid.progress;
    const now = monotonicNow();
    if (this.timer === undefined && now >= this.openAt) return this.send(valid, now);
    this.kept = valid;
    if (this.timer === undefined) {
      this.timer = setTimeout(flushChannel, timerDelay(Math.max(1, this.openAt - now)), this);
      (this.timer as { unref?: () => void }).unref?.();
    }
  }

  private send(update: ProgressUpdate, now: number): void {
    this.openAt = now + this.intervalMs;
    try {
      const returned: unknown = this.deliver(update);
      if (isPromiseLike(returned)) returned.then(undefined, ignore);
    } catch {
      // The caller's callback failing is the caller's: it never reaches the handler or the outcome.
    }
  }
}

function flushChannel(channel: ProgressChannel): void {
  channel.flush();
}

function ignore(): void {}

/** A fresh, frozen update when `update` is acceptable after `last`; the handler's object never reaches the caller. */
function validProgress(update: unknown, last: number): ProgressUpdate | undefined {
  if (typeof update !== "object" || update === null) return undefined;
  let progress: unknown;
  let total: unknown;
  let message: unknown;
  try {
    ({ progress, total, message } = update as Record<string, unknown>);
  } catch {
    return undefined;
  }
  if (typeof progress !== "number" || !Number.isFinite(progress) || !(progress > last)) return undefined;
  if (total !== undefined && (typeof total !== "number" || !Number.isFinite(total))) return undefined;
  if (message !== undefined && typeof message !== "string") return undefined;
  const out: ProgressUpdate = { progress };
  if (total !== undefined) out.total = total;
  if (message !== undefined) out.message = capped(message);
  return Object.freeze(out);
}

function capped(message: string): string {
  if (message.length <= PROGRESS_MESSAGE_MAX) return message;
  // Never end on half a surrogate pair.
  const end = isHighSurrogate(message.charCodeAt(PROGRESS_MESSAGE_MAX - 1)) ? PROGRESS_MESSAGE_MAX - 1 : PROGRESS_MESSAGE_MAX;
  return message.slice(0, end);
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
