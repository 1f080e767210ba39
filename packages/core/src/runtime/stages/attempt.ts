import { call } from "@orpc/server";
import { CapabilityError } from "../../errors/capability-error.js";
import { mapOrpcError } from "../../errors/map-orpc-error.js";
import type { SpanHandle } from "../../tracing/types.js";
import type { Execution } from "../execution.js";
import type { CapabilityPlan } from "../plan.js";
import { deadlineQueue, type DeadlineEntry, type DeadlineQueue } from "../../internal/deadline-queue.js";
import { bindAttemptPath, SIGNAL_ON_DEMAND, type AttemptSignalSource } from "./signal-on-demand.js";

/**
 * `events`: a streaming attempt's delivered event count (stages/stream.ts), where `output` is already the last event,
 * redacted. `executedBeforeFailure`: the procedure ran and its result was withheld (a stream's event failed redaction).
 */
export type AttemptOutcome =
  | { ok: true; output: unknown; events?: number }
  | { ok: false; error: CapabilityError; events?: number; executedBeforeFailure?: true };

/** Turns an attempt's outcome into what its promise resolves to, called once when the attempt settles. */
export type AttemptFinish<T> = (exec: Execution, outcome: AttemptOutcome) => T;

/**
 * One stage-11 attempt: one AbortController (where SIGNAL_ON_DEMAND, only once a middleware or the handler reads its
 * signal), one deadline on the shared queue for its duration (one unref'd timer serves them all, deadline-queue.ts)
 * and one listener on the caller signal, all released when it settles (docs/architecture/spec/core.md#core-16).
 * The first of result, deadline and caller abort wins; anything later is discarded. A signal first read after an abort is born aborted with
 * the same reason, so every reader sees what an eager controller would have shown (SI-12).
 * A class rather than closures, finishing the execution itself when it settles: an attempt in flight is the
 * runtime's largest per-call allocation (issue 28).
 */
export class Attempt<T> implements AttemptSignalSource, DeadlineEntry {
  protected settled = false;
  private controller: AbortController | undefined;
  private reason: CapabilityError | undefined;
  due = 0;
  prevDue: DeadlineEntry | undefined = undefined;
  nextDue: DeadlineEntry | undefined = undefined;
  queue: DeadlineQueue | undefined = undefined;

  constructor(
    protected readonly exec: Execution,
    private readonly finish: AttemptFinish<T>,
    private readonly resolve: (value: T) => void,
    private readonly reject: (error: unknown) => void,
    private readonly signal: AbortSignal | undefined,
    private readonly span: SpanHandle | undefined,
    timeoutMs: number,
  ) {
    deadlineQueue(timeoutMs).add(this);
  }

  start(plan: CapabilityPlan, input: unknown, context: Record<string, unknown>): void {
    if (this.signal) {
      if (this.signal.aborted) return this.abortWith(new CapabilityError({ code: "CANCELLED" }));
      // The attempt itself is the listener (handleEvent): no closure per call.
      this.signal.addEventListener("abort", this, { once: true });
    }
    let pending: Promise<unknown>;
    try {
      pending = SIGNAL_ON_DEMAND
        ? call(plan.executable, input, { context, path: bindAttemptPath(plan.path, this) })
        : call(plan.executable, input, { context, signal: this.handlerSignal(), path: plan.path as string[] });
    } catch (error) {
      return this.settle({ ok: false, error: mapOrpcError(error) });
    }
    pending.then(
      (output) => this.onOutput(output),
      (error) => this.settle({ ok: false, error: mapOrpcError(error) }),
    );
  }

  /** What the call resolved with; a streaming attempt consumes it instead (stages/stream.ts). */
  protected onOutput(output: unknown): void {
    this.settle({ ok: true, output });
  }

  handlerSignal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.reason !== undefined) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  /** The deadline passed. */
  expire(): void {
    this.abortWith(new CapabilityError({ code: "TIMEOUT" }));
  }

  /** The caller's signal fired: terminal, never retried. */
  handleEvent(): void {
    this.abortWith(new CapabilityError({ code: "CANCELLED" }));
  }

  abortWith(error: CapabilityError): void {
    this.stopWith({ ok: false, error });
  }

  /** Ends the attempt with a failure and aborts the handler's signal, unless an outcome was already decided. */
  protected stopWith(outcome: Extract<AttemptOutcome, { ok: false }>): void {
    if (!this.decide()) return;
    this.reason = outcome.error;
    // Decided before aborting: the handler's abort listeners run inside abort(), and one that aborts the caller or
    // settles the handler must not replace the outcome that got here first (SI-12).
    this.controller?.abort(outcome.error);
    this.complete(outcome);
  }

  protected settle(outcome: AttemptOutcome): void {
    if (this.decide()) this.complete(outcome);
  }

  /** The first outcome wins: false when one was already decided. Releases the deadline and the caller listener. */
  private decide(): boolean {
    if (this.settled) return false;
    this.settled = true;
    this.queue?.remove(this);
    this.signal?.removeEventListener("abort", this);
    return true;
  }

  protected complete(outcome: AttemptOutcome): void {
    this.span?.end(outcome.ok ? "ok" : "error");
    let value: T;
    try {
      value = this.finish(this.exec, outcome);
    } catch (error) {
      // A runtime invariant broken while finishing: the orchestrator's last guard turns it into one envelope.
      return this.reject(error);
    }
    this.resolve(value);
  }
}

export function runAttempt<T>(
  exec: Execution,
  input: unknown,
  context: Record<string, unknown>,
  signal: AbortSignal | undefined,
  span: SpanHandle | undefined,
  finish: AttemptFinish<T>,
): Promise<T> {
  const plan = exec.plan!;
  return new Promise<T>((resolve, reject) => new Attempt(exec, finish, resolve, reject, signal, span, plan.timeoutMs).start(plan, input, context));
}
