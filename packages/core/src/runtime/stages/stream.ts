import { ORPCError } from "@orpc/server";
import { CapabilityError } from "../../errors/capability-error.js";
import { mapOrpcError } from "../../errors/map-orpc-error.js";
import { deadlineQueue, type DeadlineEntry, type DeadlineQueue } from "../../internal/deadline-queue.js";
import { isPromiseLike } from "../../internal/promise.js";
import type { SpanHandle } from "../../tracing/types.js";
import type { Execution } from "../execution.js";
import { Attempt, type AttemptFinish, type AttemptOutcome } from "./attempt.js";
import { redactOutput } from "./redact-output.js";

/** `ExecutionOptions.onEvent`: the caller's receiver of a stream's redacted events. */
export type EventSink = (event: unknown) => void | Promise<void>;

/**
 * Stage 11 of a streaming capability (its output an oRPC event iterator): one attempt that pulls the handler's
 * iterator one event at a time, redacts each event (stage 13, per event), hands it to `onEvent` and waits for that to
 * settle before pulling the next, so a slow consumer never lets the handler run ahead (memory stays bounded).
 *
 * Bounds (SI-12): the attempt's deadline (`timeoutMs`) covers the whole stream, consumer time included; the idle
 * bound runs only while the handler is asked for its next event; past `maxEvents` the stream fails. Whatever ends it
 * early (caller abort, a bound, a redaction failure, a consumer that throws) decides the outcome first, then calls
 * `return()` on the iterator without waiting for it: a handler that ignores it is cut off all the same, since nothing
 * it yields after the decision is delivered. A redaction failure fails closed: that event and every later one stay
 * in; the events before it were redacted and delivered.
 */
class StreamAttempt<T> extends Attempt<T> {
  private iterator: AsyncIterator<unknown> | undefined = undefined;
  /** The iterator finished by itself (done or threw): nothing to return. */
  private ended = false;
  private events = 0;
  private last: unknown = undefined;
  private readonly idle: IdleBound;

  constructor(
    exec: Execution,
    finish: AttemptFinish<T>,
    resolve: (value: T) => void,
    reject: (error: unknown) => void,
    signal: AbortSignal | undefined,
    span: SpanHandle | undefined,
    private readonly onEvent: EventSink | undefined,
  ) {
    const plan = exec.plan!;
    super(exec, finish, resolve, reject, signal, span, plan.timeoutMs);
    this.idle = new IdleBound(this, plan.streamIdleTimeoutMs);
  }

  protected override onOutput(output: unknown): void {
    if (!isAsyncIterator(output)) {
      // oRPC's eventIterator output schema refuses anything else first; this guards a procedure seam that does not.
      return this.settle({ ok: false, error: new CapabilityError({ code: "OUTPUT_INVALID", cause: new TypeError("A streaming capability's handler must return an async iterator.") }) });
    }
    // Decided before the stream began (a caller abort, the deadline): the handler's iterator never starts.
    if (this.settled) return closeQuietly(output);
    this.iterator = output;
    void this.pump(output);
  }

  protected override complete(outcome: AttemptOutcome): void {
    this.idle.stop();
    outcome.events = this.events;
    try {
      // The terminal audit event is emitted here, after the last delivered event.
      super.complete(outcome);
    } finally {
      if (!this.ended && this.iterator !== undefined) {
        this.ended = true;
        closeQuietly(this.iterator);
      }
    }
  }

  /** Never rejects: every way out decides the outcome (or finds it decided). */
  private async pump(iterator: AsyncIterator<unknown>): Promise<void> {
    const plan = this.exec.plan!;
    for (;;) {
      let step: IteratorResult<unknown>;
      this.idle.start();
      try {
        step = await iterator.next();
      } catch (error) {
        this.ended = true;
        return this.settle({ ok: false, error: streamError(error) });
      } finally {
        this.idle.stop();
      }
      // Decided while the handler worked (abort, a bound): this value and any later one are dropped (SI-12).
      if (this.settled) return;
      if (step.done) {
        // The generator's return value is not an event: only what it yields leaves, each redacted.
        this.ended = true;
        return this.settle({ ok: true, output: this.last });
      }
      if (this.events >= plan.streamMaxEvents) return this.stopWith({ ok: false, error: tooManyEvents(plan.streamMaxEvents) });
      const redacted = redactOutput(plan, step.value);
      if (redacted instanceof CapabilityError) return this.stopWith({ ok: false, error: redacted, executedBeforeFailure: true });
      this.events++;
      this.last = redacted.output;
      if (this.onEvent === undefined) continue;
      try {
        const consumed = this.onEvent(redacted.output);
        if (isPromiseLike(consumed)) await consumed;
      } catch {
        // The caller stopped taking events: the stream ends as the caller's cancellation would.
        return this.stopWith({ ok: false, error: new CapabilityError({ code: "CANCELLED" }) });
      }
      if (this.settled) return;
    }
  }
}

/**
 * The idle bound: armed while the handler is asked for its next event, so time the consumer spends in `onEvent` never
 * counts as the handler being idle. An entry on the shared deadline queue of its duration, like the attempt's own.
 */
class IdleBound implements DeadlineEntry {
  due = 0;
  prevDue: DeadlineEntry | undefined = undefined;
  nextDue: DeadlineEntry | undefined = undefined;
  queue: DeadlineQueue | undefined = undefined;
  private readonly on: DeadlineQueue;

  constructor(
    private readonly attempt: { abortWith(error: CapabilityError): void },
    ms: number,
  ) {
    this.on = deadlineQueue(ms);
  }

  start(): void {
    if (this.queue === undefined) this.on.add(this);
  }

  stop(): void {
    this.queue?.remove(this);
  }

  expire(): void {
    this.attempt.abortWith(new CapabilityError({ code: "TIMEOUT" }));
  }
}

function isAsyncIterator(value: unknown): value is AsyncIterator<unknown> {
  return typeof value === "object" && value !== null && typeof (value as { next?: unknown }).next === "function";
}

/** `return()` without waiting: a handler stuck between yields must not hold the outcome. */
function closeQuietly(iterator: AsyncIterator<unknown>): void {
  try {
    const closing: unknown = iterator.return?.();
    if (isPromiseLike(closing)) closing.then(undefined, ignore);
  } catch {
    // The handler's cleanup failing changes nothing: the outcome is decided.
  }
}

function ignore(): void {}

/**
 * oRPC validates each yielded event against the `eventIterator(...)` schema; a failure is the handler's bad output.
 * oRPC 1 names it `EVENT_ITERATOR_VALIDATION_FAILED`, oRPC 2 `ASYNC_ITERATOR_OBJECT_VALIDATION_FAILED`.
 */
const EVENT_VALIDATION_CODES: ReadonlySet<string> = new Set(["EVENT_ITERATOR_VALIDATION_FAILED", "ASYNC_ITERATOR_OBJECT_VALIDATION_FAILED"]);

function streamError(thrown: unknown): CapabilityError {
  if (thrown instanceof ORPCError && EVENT_VALIDATION_CODES.has(thrown.code)) return new CapabilityError({ code: "OUTPUT_INVALID", cause: thrown });
  return mapOrpcError(thrown);
}

function tooManyEvents(max: number): CapabilityError {
  return new CapabilityError({ code: "EXECUTION_FAILED", cause: new Error(`The stream yielded more than its maxEvents bound (${max}).`) });
}

/** One streaming attempt; resolves with `finish(outcome)` once the stream has ended or been ended. */
export function runStreamAttempt<T>(
  exec: Execution,
  input: unknown,
  context: Record<string, unknown>,
  signal: AbortSignal | undefined,
  span: SpanHandle | undefined,
  finish: AttemptFinish<T>,
  onEvent: EventSink | undefined,
): Promise<T> {
  const plan = exec.plan!;
  return new Promise<T>((resolve, reject) => new StreamAttempt(exec, finish, resolve, reject, signal, span, onEvent).start(plan, input, context));
}
