// SI-13: a grant is never used after it expired. The stage-9 lookup awaits the definition digest (and the seal)
// between judging a grant and using it; a clock that passes the grant's expiry meanwhile must be the one the use
// is judged on. The injected clock jumps past expiry right after the lookup's first reading, deterministically.
import { createInMemoryApprovalCoordinator, type ApprovalCoordinator } from "@orpc-agent/core";
import { describe, expect, it } from "vitest";
import { dana } from "./support/runtime.js";
import { HOUR, grant, grantRuntime, priya, refunds } from "./support/grants.js";

const context = {};
const input = { customerId: "c_ada", amount: 10 };
const T0 = Date.parse("2026-12-06T12:00:00.000Z");

/** A clock the test sets; once armed by the store's grant listing, the reading after the next one is `later`. */
function steppingClock() {
  let t = T0;
  let pending: { later: number; readsLeft: number } | undefined;
  let armed: number | undefined;
  const now = () => {
    const reading = new Date(t);
    if (pending !== undefined && --pending.readsLeft === 0) {
      t = pending.later;
      pending = undefined;
    }
    return reading;
  };
  return {
    now,
    set: (at: number) => void (t = at),
    /** After the next grant listing, one more reading at the current time, then every reading at `later`. */
    jumpAfterListing: (later: number) => void (armed = later),
    listed: () => {
      if (armed !== undefined) pending = { later: armed, readsLeft: 1 };
      armed = undefined;
    },
  };
}

function setup() {
  const clock = steppingClock();
  const inner = createInMemoryApprovalCoordinator({ now: clock.now });
  const coordinator: ApprovalCoordinator = {
    ...inner,
    listGrants: async (filter) => {
      const listed = await inner.listGrants!(filter);
      clock.listed();
      return listed;
    },
  };
  const cap = refunds();
  const { runtime, events } = grantRuntime({ refund: cap.procedure }, { approvals: { coordinator }, now: clock.now });
  return { clock, cap, runtime, events };
}

describe("grant expiry judged on a fresh clock (SI-13)", () => {
  it("SI-13: a grant that expires while the lookup awaits the definition check is not used: the call asks, no use is taken", async () => {
    const { clock, cap, runtime, events } = setup();
    const issued = await runtime.grants.issue({ capabilityId: "refund", actor: dana, surface: "direct", issuers: [priya], grant: grant({ uses: 3, ttlMs: HOUR }) });
    expect(issued.expiresAt.getTime()).toBe(T0 + HOUR);

    clock.set(T0 + HOUR - 1); // live when the lookup first reads the clock
    clock.jumpAfterListing(T0 + HOUR + 1); // expired by the time the use is taken
    const result = await runtime.invoke("refund", input, { actor: dana, context, surface: "direct" });

    expect(result.status).toBe("approval-required");
    expect(cap.ran).toHaveLength(0);
    const stored = await runtime.grants.get(issued.id);
    expect(stored).toMatchObject({ usesLeft: 3, status: "expired" });
    expect(events.some((e) => e.type === "capability.approved")).toBe(false);
  });

  it("SI-13: a clock that moves during the lookup but stays before expiry still covers (the control)", async () => {
    const { clock, cap, runtime } = setup();
    const issued = await runtime.grants.issue({ capabilityId: "refund", actor: dana, surface: "direct", issuers: [priya], grant: grant({ uses: 3, ttlMs: HOUR }) });
    clock.set(T0 + HOUR - 10);
    clock.jumpAfterListing(T0 + HOUR); // exactly at expiresAt a grant is still live (strict, as approvals)
    expect((await runtime.invoke("refund", input, { actor: dana, context, surface: "direct" })).status).toBe("completed");
    expect(cap.ran).toHaveLength(1);
    expect((await runtime.grants.get(issued.id))!.usesLeft).toBe(2);
  });
});
