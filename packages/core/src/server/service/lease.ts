import type { InvocationKey } from "../journal/types.js";
import type { EventSubject, ServiceState } from "./state.js";

export type Claim = { key: InvocationKey; fence: number; subject: EventSubject };

/** The worker's hold on a claim while the runtime runs: a renewal heartbeat and the signal given to the runtime. */
export type Lease = {
  /** Aborts when the caller's signal does, or when a renewal finds the fence superseded. */
  readonly signal: AbortSignal;
  readonly fencedOut: boolean;
  stop(): void;
};

/**
 * Renews every `leaseMs / 3` (docs/architecture/spec/distributed.md#distributed-5-4 step 4). A `false` renewal means another worker holds the
 * invocation now: the runtime call is aborted through its signal (before stage 11 it then calls nothing) and
 * the result becomes `outcome-unknown fenced-out`. A throwing renewal is retried on the next beat; if the
 * journal stays down the claim lapses, which observers see as `unknown`, never as claimable.
 */
export function holdLease(s: ServiceState, claim: Claim, callerSignal: AbortSignal | undefined): Lease {
  const controller = new AbortController();
  let fencedOut = false;
  let renewing = false;
  let stopped = false;

  const onCallerAbort = () => controller.abort(callerSignal!.reason);
  if (callerSignal?.aborted) controller.abort(callerSignal.reason);
  else callerSignal?.addEventListener("abort", onCallerAbort, { once: true });

  const beat = async () => {
    if (renewing || stopped) return;
    renewing = true;
    try {
      const renewed = await s.journal.renew(claim.key, claim.fence, new Date(s.now().getTime() + s.leaseMs));
      if (!renewed && !stopped) {
        fencedOut = true;
        stop();
        s.emit("fenced_out", claim.subject, { fence: claim.fence });
        controller.abort(new Error("The invocation claim was superseded."));
      }
    } catch {
      // Transient journal failure: the next beat tries again.
    } finally {
      renewing = false;
    }
  };
  const timer = setInterval(() => void beat(), Math.max(1, Math.floor(s.leaseMs / 3)));
  (timer as { unref?: () => void }).unref?.();

  function stop() {
    if (stopped) return;
    stopped = true;
    clearInterval(timer);
    callerSignal?.removeEventListener("abort", onCallerAbort);
  }

  return {
    signal: controller.signal,
    get fencedOut() {
      return fencedOut;
    },
    stop,
  };
}
