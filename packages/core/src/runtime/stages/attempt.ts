import { call } from "@orpc/server";
import { CapabilityError } from "../../errors/capability-error.js";
import { mapOrpcError } from "../../errors/map-orpc-error.js";
import type { SpanHandle } from "../../tracing/types.js";
import type { CapabilityPlan } from "../plan.js";
import { timerDelay } from "../../internal/promise.js";

export type AttemptOutcome = { ok: true; output: unknown } | { ok: false; error: CapabilityError };

/**
 * One stage-11 attempt: one AbortController, one unref'd timer and one listener on the caller signal, all released
 * when it settles (core.md §16). The first of result, timer and caller abort wins; anything later is discarded.
 * A class rather than closures: an attempt in flight is the runtime's largest per-call allocation.
 */
class Attempt {
  private settled = false;
  private readonly controller = new AbortController();
  private readonly timer: ReturnType<typeof setTimeout>;

  constructor(
    private readonly resolve: (outcome: AttemptOutcome) => void,
    private readonly signal: AbortSignal | undefined,
    private readonly span: SpanHandle | undefined,
    timeoutMs: number,
  ) {
    this.timer = setTimeout(onTimeout, timerDelay(timeoutMs), this);
    (this.timer as { unref?: () => void }).unref?.();
  }

  start(plan: CapabilityPlan, input: unknown, context: Record<string, unknown>): void {
    if (this.signal) {
      if (this.signal.aborted) return this.abortWith(new CapabilityError({ code: "CANCELLED" }));
      // The attempt itself is the listener (handleEvent): no closure per call.
      this.signal.addEventListener("abort", this, { once: true });
    }
    let pending: Promise<unknown>;
    try {
      pending = call(plan.executable, input, { context, signal: this.controller.signal, path: plan.path as string[] });
    } catch (error) {
      return this.settle({ ok: false, error: mapOrpcError(error) });
    }
    pending.then(
      (output) => this.settle({ ok: true, output }),
      (error) => this.settle({ ok: false, error: mapOrpcError(error) }),
    );
  }

  /** The caller's signal fired: terminal, never retried. */
  handleEvent(): void {
    this.abortWith(new CapabilityError({ code: "CANCELLED" }));
  }

  abortWith(error: CapabilityError): void {
    if (this.settled) return;
    this.controller.abort(error);
    this.settle({ ok: false, error });
  }

  private settle(outcome: AttemptOutcome): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    this.signal?.removeEventListener("abort", this);
    this.span?.end(outcome.ok ? "ok" : "error");
    this.resolve(outcome);
  }
}

function onTimeout(attempt: Attempt): void {
  attempt.abortWith(new CapabilityError({ code: "TIMEOUT" }));
}

export function runAttempt(
  plan: CapabilityPlan,
  input: unknown,
  context: Record<string, unknown>,
  signal: AbortSignal | undefined,
  span: SpanHandle | undefined,
): Promise<AttemptOutcome> {
  return new Promise<AttemptOutcome>((resolve) => new Attempt(resolve, signal, span, plan.timeoutMs).start(plan, input, context));
}
