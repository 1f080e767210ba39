import { CapabilityError } from "../errors/capability-error.js";
import type { AgentAuditEvent, AuditConfig, AuditSink } from "./types.js";
import { timerDelay } from "../internal/promise.js";
import { createAuditChainer, type AuditChainer } from "./chain/link.js";

export type AuditEmitter = {
  /** False when no sink is configured: callers build no event at all (docs/architecture/spec/core.md#core-16). */
  readonly enabled: boolean;
  readonly strict: boolean;
  readonly verbose: boolean;
  /** The runtime's hash chain id when `audit.chain` is on. */
  readonly chainId: string | undefined;
  /**
   * Best-effort: every sink called synchronously, in order; failures go to onSinkError.
   * Returns the event's receipt id when chained and terminal.
   */
  emit(event: AgentAuditEvent): string | undefined;
  /** Strict `capability.started`: awaited on all sinks; the first failure rejects (no onSinkError). */
  emitAwaited(event: AgentAuditEvent): Promise<void>;
  /**
   * Work that emits when it settles, after the call that started it answered (a shadow policy still deciding):
   * `drain` waits for it as for a write, so its events are never lost. A rejection only ends the wait.
   */
  track(work: Promise<void>): void;
  drain(timeoutMs: number): Promise<void>;
};

const MAX_KEPT_FAILURES = 100;

const defaultOnSinkError = (err: unknown, event: AgentAuditEvent): void => {
  console.error(`[orpc-agent] audit sink failed for ${event.type}:`, err);
};

export function normalizeAuditConfig(config: AuditConfig | undefined) {
  if (config === undefined) return { sinks: [] as AuditSink[], strict: false, verbose: false, chain: false, onSinkError: defaultOnSinkError };
  if (typeof config === "function") return { sinks: [config], strict: false, verbose: false, chain: false, onSinkError: defaultOnSinkError };
  if (Array.isArray(config)) {
    assertSinks(config);
    return { sinks: [...config], strict: false, verbose: false, chain: false, onSinkError: defaultOnSinkError };
  }
  if (typeof config !== "object" || config === null || !Array.isArray(config.sinks)) {
    throw new TypeError("audit must be a sink function, an array of sinks, or { sinks: AuditSink[], strict?, verbose?, onSinkError? }.");
  }
  assertSinks(config.sinks);
  if (config.onSinkError !== undefined && typeof config.onSinkError !== "function") throw new TypeError("audit.onSinkError must be a function.");
  if (config.chain !== undefined && typeof config.chain !== "boolean") throw new TypeError("audit.chain must be a boolean.");
  return {
    sinks: [...config.sinks],
    strict: config.strict === true,
    verbose: config.verbose === true,
    chain: config.chain === true,
    onSinkError: config.onSinkError ?? defaultOnSinkError,
  };
}

function assertSinks(sinks: unknown[]): asserts sinks is AuditSink[] {
  for (const sink of sinks) if (typeof sink !== "function") throw new TypeError("Every audit sink must be a function.");
}

export function createAuditEmitter(config: AuditConfig | undefined): AuditEmitter {
  const { sinks, strict, verbose, chain, onSinkError } = normalizeAuditConfig(config);
  // Without sinks nothing is emitted, so no chain either.
  const chainer: AuditChainer | undefined = chain && sinks.length > 0 ? createAuditChainer() : undefined;
  // A count and idle waiters rather than a set of promises: the hot path pays one shared callback per write.
  let inFlight = 0;
  let idleWaiters: (() => void)[] = [];
  let unreported: unknown[] = [];
  // The true number of failures since the last drain; `unreported` keeps only the first few.
  let unreportedCount = 0;
  const writeSettled = () => {
    if (--inFlight > 0 || idleWaiters.length === 0) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const wake of waiters) wake();
  };

  const report = (err: unknown, event: AgentAuditEvent) => {
    // Bounded: a failing sink in a process that never drains must not grow memory without limit.
    unreportedCount++;
    if (unreported.length < MAX_KEPT_FAILURES) unreported.push(err);
    try {
      onSinkError(err, event);
    } catch {
      // A throwing error handler must not break execution (docs/architecture/spec/core.md#core-11).
    }
  };

  /** Links the event into the chain; an event that cannot be hashed goes out unchained and is reported. */
  const link = (event: AgentAuditEvent): AgentAuditEvent => {
    if (chainer === undefined) return event;
    try {
      return chainer.link(event);
    } catch (err) {
      report(err, event);
      return event;
    }
  };

  const emit = (original: AgentAuditEvent): string | undefined => {
    const event = link(original);
    for (const sink of sinks) {
      let result: void | Promise<void>;
      try {
        result = sink(event);
      } catch (err) {
        report(err, event);
        continue;
      }
      if (result && typeof (result as Promise<void>).then === "function") {
        inFlight++;
        (result as Promise<void>).then(writeSettled, (err) => {
          report(err, event);
          writeSettled();
        });
      }
    }
    return event.receiptId;
  };

  const emitAwaited = async (original: AgentAuditEvent): Promise<void> => {
    const event = link(original);
    // Start every write before awaiting any, so one slow sink does not serialize the others.
    const writes = sinks.map((sink) => {
      try {
        return Promise.resolve(sink(event));
      } catch (err) {
        return Promise.reject(err);
      }
    });
    const settled = await Promise.allSettled(writes);
    const failure = settled.find((s): s is PromiseRejectedResult => s.status === "rejected");
    if (failure) throw failure.reason;
  };

  const track = (work: Promise<void>): void => {
    inFlight++;
    work.then(writeSettled, writeSettled);
  };

  const drain = async (timeoutMs: number): Promise<void> => {
    if (typeof timeoutMs !== "number" || !Number.isFinite(timeoutMs) || timeoutMs <= 0) {
      throw new TypeError("drainAudit timeoutMs must be a finite number > 0.");
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), timerDelay(timeoutMs));
    });
    try {
      // Waits for the count to reach zero, so writes (and tracked work) started while we wait are awaited too.
      if (inFlight > 0) {
        const idle = new Promise<"idle">((resolve) => idleWaiters.push(() => resolve("idle")));
        const outcome = await Promise.race([idle, deadline]);
        if (outcome === "timeout") {
          throw new CapabilityError({ code: "AUDIT_UNAVAILABLE", cause: new Error(`Audit sinks did not settle within ${timeoutMs} ms.`) });
        }
      }
    } finally {
      clearTimeout(timer);
    }
    if (unreportedCount > 0) {
      const failures = unreported;
      const count = unreportedCount;
      unreported = [];
      unreportedCount = 0;
      const kept = count > failures.length ? ` (the first ${failures.length} are attached)` : "";
      throw new CapabilityError({
        code: "AUDIT_UNAVAILABLE",
        cause: count === 1 ? failures[0] : new AggregateError(failures, `${count} audit writes failed${kept}.`),
      });
    }
  };

  return { enabled: sinks.length > 0, strict, verbose, chainId: chainer?.id, emit, emitAwaited, track, drain };
}
