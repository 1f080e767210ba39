import { monotonicNow, sleep } from "../../internal/promise.js";
import type { JournalFinish } from "../journal/types.js";
import type { Claim } from "./lease.js";
import type { ServiceState } from "./state.js";

const RETRY_DELAYS_MS = [20, 60, 180];

/**
 * Records the outcome at the claim's fence (docs/architecture/spec/distributed.md#distributed-5-4 step 7). `false` from the journal means a newer
 * holder exists: `stale_settlement`, and the caller still gets the real envelope. A throwing journal is retried
 * three times within the lease, then `settlement_failed`: the row lapses to `unknown` for the application.
 * Called after the heartbeat stopped, so at least two thirds of a lease remain for the retries.
 */
export async function settleClaim(s: ServiceState, claim: Claim, to: JournalFinish): Promise<"recorded" | "stale" | "failed"> {
  const deadline = monotonicNow() + (s.leaseMs * 2) / 3;
  for (let attempt = 0; ; attempt++) {
    try {
      if (await s.journal.finish(claim.key, claim.fence, to)) return "recorded";
      s.emit("stale_settlement", claim.subject, { fence: claim.fence });
      return "stale";
    } catch {
      const delay = RETRY_DELAYS_MS[attempt];
      if (delay === undefined || monotonicNow() + delay >= deadline) break;
      await sleep(delay);
    }
  }
  s.emit("settlement_failed", claim.subject, { fence: claim.fence });
  return "failed";
}
