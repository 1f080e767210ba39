// SI-13: attacks on the live-entry lookup (the in-memory store hands stage 9 its own entries, judged on the runtime's
// millisecond clock). Nothing a handler, policy or audit sink can reach may widen a grant; uses stay exact under
// concurrency and re-entrancy; a clock the runtime cannot read covers nothing; a runtime where the grant does not bind
// is never covered by it, even over a shared coordinator.
import { createInMemoryApprovalCoordinator, type AgentAuditEvent, type AgentPolicy, type ApprovalCoordinator, type GrantRecord } from "@orpc-agent/core";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { approvalOf, build, dana } from "./support/runtime.js";
import { CAPS, HOUR, grant, grantRuntime, priya, refunds } from "./support/grants.js";

const context = {};
const call = { customerId: "c_ada", amount: 10 };

/** A clock the test moves by hand; `value` may be anything, to play a broken clock. */
function handClock(start = Date.now()) {
  const clock = { value: new Date(start) as unknown, now: () => clock.value as Date };
  return clock;
}

async function usesLeft(runtime: { grants: { get(id: string): Promise<GrantRecord | null> } }, id: string): Promise<number> {
  return (await runtime.grants.get(id))!.usesLeft;
}

/**
 * A refund runtime on `now` whose in-memory coordinator answers the lookup in the same tick, or through a wrapped
 * `useGrant` (the awaited path), with one grant of `uses` issued to dana.
 */
async function grantOnPath(path: "same-tick" | "wrapped", now: () => Date, uses: number) {
  const inner = createInMemoryApprovalCoordinator();
  const coordinator: ApprovalCoordinator = path === "same-tick" ? inner : { ...inner, useGrant: (id, use) => inner.useGrant!(id, use) };
  const cap = refunds();
  const { runtime } = grantRuntime({ refund: cap.procedure }, { now, approvals: { coordinator, seal: false } });
  const issued = await runtime.grants.issue({ capabilityId: "refund", actor: dana, surface: "direct", issuers: [priya], grant: grant({ uses }) });
  return { runtime, cap, issued };
}

/** A clock that serves `reading()` only where stage 9 reads it (while `armed()`), and the present everywhere else. */
function lookupClock(reading: () => unknown, armed: () => boolean = () => true) {
  let served = 0;
  const now = () => {
    if (armed() && /cover(Now|Later)/.test(new Error().stack ?? "")) {
      served++;
      return reading() as Date;
    }
    return new Date();
  };
  return { now, served: () => served };
}

describe("SI-13 attacks on the live-entry lookup", () => {
  it("SI-13: an audit sink that writes to every object of capability.approved widens nothing: k uses run k handlers", async () => {
    const cap = refunds();
    const reported: number[] = [];
    const sink = (event: AgentAuditEvent) => {
      if (event.type !== "capability.approved") return;
      const e = event as unknown as Record<string, any>;
      reported.push(e.data.grant.usesLeft);
      for (const write of [
        () => (e.data.grant.usesLeft = 1_000),
        () => (e.data.grant.id = "other"),
        () => (e.data.approver.id = "mo"),
        () => (e.approver.id = "mo"),
        () => (e.actor.id = "mo"),
        () => Object.defineProperty(e.data.grant, "usesLeft", { value: 1_000 }),
      ]) {
        try {
          write();
        } catch {
          // refused: fine
        }
      }
    };
    const coordinator = createInMemoryApprovalCoordinator();
    const { runtime: rt } = build({ defs: { refund: cap.procedure }, approvals: { coordinator }, audit: sink });
    const issued = await rt.grants.issue({ capabilityId: "refund", actor: dana, surface: "direct", issuers: [priya], grant: grant({ uses: 2 }) });

    expect((await rt.invoke("refund", call, { actor: dana, context })).status).toBe("completed");
    expect((await rt.invoke("refund", call, { actor: dana, context })).status).toBe("completed");
    approvalOf(await rt.invoke("refund", call, { actor: dana, context }));
    expect(cap.ran).toHaveLength(2);
    expect(await rt.grants.get(issued.id)).toMatchObject({ usesLeft: 0, status: "exhausted", issuers: [{ id: "priya", kind: "user" }], actor: { id: "dana" } });
    // Each event reported the uses left after its own use, whatever the sink then wrote into it.
    expect(reported).toEqual([1, 0]);
  });

  it("SI-13: a handler that writes to, redefines or freezes-around the approval it is shown changes no grant", async () => {
    const outcomes: string[] = [];
    const { procedure: refund } = refunds({
      handler: ({ context }) => {
        const approval = context.agent!.approval! as unknown as Record<string, any>;
        for (const write of [
          () => Reflect.set(approval.approver, "id", "mo"),
          () => Reflect.defineProperty(approval.approver, "kind", { value: "service" }),
          () => Reflect.setPrototypeOf(approval.approver, { id: "mo" }),
          () => Reflect.deleteProperty(approval.approver, "id"),
        ]) {
          outcomes.push(write() ? "written" : "refused");
        }
        return { approver: approval.approver.id };
      },
    });
    const { runtime } = grantRuntime({ refund });
    const issued = await runtime.grants.issue({ capabilityId: "refund", actor: dana, surface: "direct", issuers: [priya], grant: grant({ uses: 2 }) });
    await runtime.invoke("refund", call, { actor: dana, context });
    const again = await runtime.invoke("refund", call, { actor: dana, context });
    expect(again).toMatchObject({ status: "completed", output: { approver: "priya" } });
    expect(outcomes.every((o) => o === "refused")).toBe(true);
    expect(await runtime.grants.get(issued.id)).toMatchObject({ usesLeft: 0, status: "exhausted", issuers: [{ id: "priya", kind: "user" }] });
    approvalOf(await runtime.invoke("refund", call, { actor: dana, context }));
  });

  it("SI-13: two runtimes over one coordinator: a grant never covers where the capability has no grants caps", async () => {
    const coordinator = createInMemoryApprovalCoordinator();
    const inA = refunds();
    const inB = refunds({ approval: { required: true, type: "manager" } });
    const { runtime: a } = build({ defs: { refund: inA.procedure }, approvals: { coordinator } });
    const { runtime: b } = build({ defs: { refund: inB.procedure }, approvals: { coordinator } });
    const issued = await a.grants.issue({ capabilityId: "refund", actor: dana, surface: "direct", issuers: [priya], grant: grant({ uses: 3 }) });
    // A's first covered call computes the digest, so the lookup runs in the same tick afterwards.
    expect((await a.invoke("refund", call, { actor: dana, context })).status).toBe("completed");
    for (let i = 0; i < 3; i++) approvalOf(await b.invoke("refund", call, { actor: dana, context }));
    expect(inB.ran).toHaveLength(0);
    expect(await usesLeft(a, issued.id)).toBe(2);
  });

  it("SI-13: two runtimes over one coordinator: a grant never covers where the caps are narrower than it", async () => {
    const coordinator = createInMemoryApprovalCoordinator();
    const inA = refunds();
    const inB = refunds({ approval: { required: true, type: "manager", grants: { ...CAPS, maxUses: 2, scopes: [...CAPS.scopes] } } });
    const { runtime: a } = build({ defs: { refund: inA.procedure }, approvals: { coordinator } });
    const { runtime: b } = build({ defs: { refund: inB.procedure }, approvals: { coordinator } });
    const wide = await a.grants.issue({ capabilityId: "refund", actor: dana, surface: "direct", issuers: [priya], grant: grant({ uses: 3 }) });
    // B's own grant (within its caps), issued later: B uses it, never A's wider one.
    const own = await b.grants.issue({ capabilityId: "refund", actor: dana, surface: "direct", issuers: [priya], grant: grant({ uses: 1 }) });
    expect((await b.invoke("refund", call, { actor: dana, context })).status).toBe("completed");
    for (let i = 0; i < 3; i++) approvalOf(await b.invoke("refund", call, { actor: dana, context }));
    expect(inB.ran).toHaveLength(1);
    expect(await usesLeft(a, wide.id)).toBe(3);
    expect(await usesLeft(b, own.id)).toBe(0);
  });

  it("SI-13: two runtimes over one coordinator: a grant never covers where the capability's definition differs", async () => {
    const coordinator = createInMemoryApprovalCoordinator();
    const inA = refunds();
    const extra: AgentPolicy = { name: "extra", phases: ["invocation"], evaluate: () => ({ type: "allow" }) };
    const inB = refunds({ policies: [extra] });
    const { runtime: a } = build({ defs: { refund: inA.procedure }, approvals: { coordinator } });
    const { runtime: b } = build({ defs: { refund: inB.procedure }, approvals: { coordinator } });
    const older = await a.grants.issue({ capabilityId: "refund", actor: dana, surface: "direct", issuers: [priya], grant: grant({ uses: 3 }) });
    const own = await b.grants.issue({ capabilityId: "refund", actor: dana, surface: "direct", issuers: [priya], grant: grant({ uses: 1 }) });
    expect(older.definitionDigest).not.toBe(own.definitionDigest);
    expect((await a.invoke("refund", call, { actor: dana, context })).status).toBe("completed");
    // The first call in B awaits the digest; the later ones are same-tick: A's older grant binds in neither.
    expect((await b.invoke("refund", call, { actor: dana, context })).status).toBe("completed");
    for (let i = 0; i < 3; i++) approvalOf(await b.invoke("refund", call, { actor: dana, context }));
    expect(inB.ran).toHaveLength(1);
    expect(await usesLeft(a, older.id)).toBe(2);
    expect(await usesLeft(b, own.id)).toBe(0);
  });

  // The clock turns bad only where stage 9 reads it (every other reading stays good), so the lookup itself is attacked.
  for (const [name, broken] of [
    ["an invalid Date", () => new Date(Number.NaN)],
    ["a number", () => Date.now()],
    ["a string", () => new Date().toISOString()],
    ["null", () => null],
    ["a Proxy over a Date", () => new Proxy(new Date(), {})],
  ] as const) {
    for (const path of ["same-tick", "wrapped"] as const) {
      it(`SI-13: a runtime clock that reads ${name} at the lookup covers nothing and takes no use (${path} store)`, async () => {
        let armed = false;
        const clock = lookupClock(broken, () => armed);
        const { runtime, cap, issued } = await grantOnPath(path, clock.now, 3);
        // A covered call first, so the digest is known and the same-tick path is the one attacked.
        expect((await runtime.invoke("refund", call, { actor: dana, context })).status).toBe("completed");
        armed = true;
        for (let i = 0; i < 2; i++) {
          let status: string;
          try {
            status = (await runtime.invoke("refund", call, { actor: dana, context })).status;
          } catch {
            status = "thrown";
          }
          expect(status).not.toBe("completed");
        }
        armed = false;
        expect(clock.served()).toBeGreaterThan(0);
        expect(cap.ran).toHaveLength(1);
        expect(await usesLeft(runtime, issued.id)).toBe(2);
      });
    }
  }

  it("SI-13: on a hand clock a grant is live at exactly expiresAt and covers nothing one millisecond later, whichever way the clock moved", async () => {
    const clock = handClock();
    const start = (clock.value as Date).getTime();
    const cap = refunds();
    const { runtime } = grantRuntime({ refund: cap.procedure }, { now: clock.now });
    const issued = await runtime.grants.issue({ capabilityId: "refund", actor: dana, surface: "direct", issuers: [priya], grant: grant({ uses: 5 }) });
    expect((await runtime.invoke("refund", call, { actor: dana, context })).status).toBe("completed");
    clock.value = new Date(start + HOUR + 1);
    approvalOf(await runtime.invoke("refund", call, { actor: dana, context }));
    clock.value = new Date(start + HOUR);
    expect((await runtime.invoke("refund", call, { actor: dana, context })).status).toBe("completed");
    clock.value = new Date(start + 2 * HOUR);
    approvalOf(await runtime.invoke("refund", call, { actor: dana, context }));
    expect(cap.ran).toHaveLength(2);
    expect(await usesLeft(runtime, issued.id)).toBe(3);
  });

  it("SI-13: grants issued at the same instant are used oldest-id first, each exactly its uses", async () => {
    const clock = handClock();
    const cap = refunds();
    const seen: AgentAuditEvent[] = [];
    const coordinator = createInMemoryApprovalCoordinator();
    const { runtime } = build({ defs: { refund: cap.procedure }, approvals: { coordinator }, now: clock.now, audit: (e: AgentAuditEvent) => void seen.push(e) });
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push((await runtime.grants.issue({ capabilityId: "refund", actor: dana, surface: "direct", issuers: [priya], grant: grant({ uses: 1 }) })).id);
    for (let i = 0; i < 4; i++) expect((await runtime.invoke("refund", call, { actor: dana, context })).status).toBe("completed");
    const more = await Promise.all(Array.from({ length: 6 }, () => runtime.invoke("refund", call, { actor: dana, context })));
    expect(more.every((r) => r.status === "approval-required")).toBe(true);
    expect(cap.ran).toHaveLength(4);
    const used = seen.filter((e) => e.type === "capability.approved").map((e) => (e as unknown as { data: { grant: { id: string } } }).data.grant.id);
    // Same issuedAt: the id breaks the tie, whatever order the store got them in.
    expect(used).toEqual([...ids].sort());
    for (const id of ids) expect(await usesLeft(runtime, id)).toBe(0);
  });

  it("SI-13: a policy that revokes the grant synchronously, before the lookup, leaves the call uncovered and every later one too", async () => {
    const coordinator = createInMemoryApprovalCoordinator();
    let target: string | undefined;
    let revokeNow = false;
    const revoker: AgentPolicy = {
      name: "revoke-mid-call",
      phases: ["invocation"],
      evaluate: () => {
        if (revokeNow && target !== undefined) void coordinator.revokeGrant!(target, { by: priya, at: new Date() });
        return { type: "allow" };
      },
    };
    const cap = refunds({ policies: [revoker] });
    const { runtime } = build({ defs: { refund: cap.procedure }, approvals: { coordinator } });
    target = (await runtime.grants.issue({ capabilityId: "refund", actor: dana, surface: "direct", issuers: [priya], grant: grant({ uses: 5 }) })).id;
    expect((await runtime.invoke("refund", call, { actor: dana, context })).status).toBe("completed");
    revokeNow = true;
    approvalOf(await runtime.invoke("refund", call, { actor: dana, context }));
    revokeNow = false;
    for (let i = 0; i < 3; i++) approvalOf(await runtime.invoke("refund", call, { actor: dana, context }));
    expect(cap.ran).toHaveLength(1);
    expect(await runtime.grants.get(target)).toMatchObject({ status: "revoked", usesLeft: 4 });
  });

  it("SI-13: an audit sink that revokes on capability.approved stops every later use once the revoke resolved", async () => {
    const coordinator = createInMemoryApprovalCoordinator();
    const cap = refunds();
    let runtimeRef: ReturnType<typeof build>["runtime"] | undefined;
    const revokes: Promise<unknown>[] = [];
    const { runtime } = build({
      defs: { refund: cap.procedure },
      approvals: { coordinator },
      audit: (event: AgentAuditEvent) => {
        if (event.type === "capability.approved" && revokes.length === 0) {
          const id = (event as unknown as { data: { grant: { id: string } } }).data.grant.id;
          revokes.push(runtimeRef!.grants.revoke(id, { by: priya, reason: "mid-call" }));
        }
      },
    });
    runtimeRef = runtime;
    const issued = await runtime.grants.issue({ capabilityId: "refund", actor: dana, surface: "direct", issuers: [priya], grant: grant({ uses: 5 }) });
    expect((await runtime.invoke("refund", call, { actor: dana, context })).status).toBe("completed");
    await Promise.all(revokes);
    const later = await Promise.all(Array.from({ length: 5 }, () => runtime.invoke("refund", call, { actor: dana, context })));
    expect(later.map((r) => r.status)).toEqual(Array(5).fill("approval-required"));
    expect(cap.ran).toHaveLength(1);
    expect(await runtime.grants.get(issued.id)).toMatchObject({ status: "revoked", usesLeft: 4 });
  });

  it("SI-13: re-entrant calls from an audit sink and a policy during a covered call keep the use count exact", async () => {
    const coordinator = createInMemoryApprovalCoordinator();
    let runtimeRef: ReturnType<typeof build>["runtime"] | undefined;
    const nested: Promise<{ status: string }>[] = [];
    let fromPolicyCalls = 0;
    let fromSinkCalls = 0;
    const fromPolicy: AgentPolicy = {
      name: "reenter",
      phases: ["invocation"],
      evaluate: () => {
        if (fromPolicyCalls++ < 6) nested.push(runtimeRef!.invoke("refund", call, { actor: dana, context }));
        return { type: "allow" };
      },
    };
    const cap = refunds({ policies: [fromPolicy] });
    const { runtime } = build({
      defs: { refund: cap.procedure },
      approvals: { coordinator },
      audit: (event: AgentAuditEvent) => {
        if (event.type === "capability.approved" && fromSinkCalls++ < 6) nested.push(runtimeRef!.invoke("refund", call, { actor: dana, context }));
      },
    });
    runtimeRef = runtime;
    const issued = await runtime.grants.issue({ capabilityId: "refund", actor: dana, surface: "direct", issuers: [priya], grant: grant({ uses: 4 }) });
    const outer = await Promise.all(Array.from({ length: 3 }, () => runtime.invoke("refund", call, { actor: dana, context })));
    // Settle every nested call, including those started by nested calls.
    for (let settled = 0; settled < nested.length; settled = nested.length) await Promise.all(nested.slice(settled));
    const all = [...outer, ...(await Promise.all(nested))];
    expect(all.filter((r) => r.status === "completed")).toHaveLength(4);
    expect(cap.ran).toHaveLength(4);
    expect(await runtime.grants.get(issued.id)).toMatchObject({ usesLeft: 0, status: "exhausted" });
  });

  it("SI-13: 40 concurrent calls on a 7-use grant run exactly 7 handlers, over the store, a spread copy and a wrapped coordinator", async () => {
    const inner = createInMemoryApprovalCoordinator();
    const spread: ApprovalCoordinator = { ...inner };
    const inner2 = createInMemoryApprovalCoordinator();
    const wrapped: ApprovalCoordinator = { ...inner2, useGrant: (id, use) => inner2.useGrant!(id, use), listGrants: (filter) => inner2.listGrants!(filter) };
    for (const coordinator of [createInMemoryApprovalCoordinator(), spread, wrapped]) {
      const cap = refunds();
      const { runtime } = grantRuntime({ refund: cap.procedure }, { approvals: { coordinator, seal: false } });
      const issued = await runtime.grants.issue({ capabilityId: "refund", actor: dana, surface: "direct", issuers: [priya], grant: grant({ uses: 7 }) });
      const results = await Promise.all(Array.from({ length: 40 }, () => runtime.invoke("refund", call, { actor: dana, context })));
      expect(results.filter((r) => r.status === "completed")).toHaveLength(7);
      expect(cap.ran).toHaveLength(7);
      expect(await runtime.grants.get(issued.id)).toMatchObject({ usesLeft: 0, status: "exhausted" });
    }
  });

  it("SI-13: a 0.3 budget never overspends on 0.1s (0.1 + 0.2 does not fit), concurrent or not", async () => {
    const cap = refunds();
    const { runtime } = grantRuntime({ refund: cap.procedure });
    const issued = await runtime.grants.issue({ capabilityId: "refund", actor: dana, surface: "direct", issuers: [priya], grant: grant({ uses: 50, budget: { path: "/amount", max: 0.3 } }) });
    const results = await Promise.all(Array.from({ length: 10 }, () => runtime.invoke("refund", { customerId: "c_ada", amount: 0.1 }, { actor: dana, context })));
    expect(results.filter((r) => r.status === "completed")).toHaveLength(2);
    const after = (await runtime.grants.get(issued.id))!;
    expect(after.spent).toBe(0.2);
    expect(after.spent! <= 0.3).toBe(true);
    expect(after.usesLeft).toBe(48);
    // 0.1 is exactly what is left on paper, but 0.2 + 0.1 > 0.3 in doubles: refused, nothing spent.
    approvalOf(await runtime.invoke("refund", { customerId: "c_ada", amount: 0.1 }, { actor: dana, context }));
    expect((await runtime.grants.get(issued.id))!.spent).toBe(0.2);
    expect(cap.ran).toHaveLength(2);
  });

  it("SI-13: -0 spends nothing but one use; a NaN or negative amount from a transform is covered by no budgeted grant", async () => {
    const cap = refunds({ schema: z.object({ customerId: z.string(), amount: z.number() }).transform((v) => ({ ...v, amount: v.amount === 7 ? -0 : v.amount === 8 ? -1 : v.amount === 9 ? Number.NaN : v.amount })) });
    const { runtime } = grantRuntime({ refund: cap.procedure });
    const issued = await runtime.grants.issue({ capabilityId: "refund", actor: dana, surface: "direct", issuers: [priya], grant: grant({ uses: 3, budget: { path: "/amount", max: 5 } }) });
    expect((await runtime.invoke("refund", { customerId: "c_ada", amount: 7 }, { actor: dana, context })).status).toBe("completed");
    let record = (await runtime.grants.get(issued.id))!;
    expect(Object.is(record.spent, 0)).toBe(true);
    expect(record.usesLeft).toBe(2);
    for (const amount of [8, 9]) expect((await runtime.invoke("refund", { customerId: "c_ada", amount }, { actor: dana, context })).status).not.toBe("completed");
    record = (await runtime.grants.get(issued.id))!;
    expect(record).toMatchObject({ usesLeft: 2, spent: 0 });
    expect(cap.ran).toHaveLength(1);
  });

  it("SI-13: a budget spent to its max exhausts the grant: even an amount of 0 is then not covered", async () => {
    const cap = refunds();
    const { runtime } = grantRuntime({ refund: cap.procedure });
    const issued = await runtime.grants.issue({ capabilityId: "refund", actor: dana, surface: "direct", issuers: [priya], grant: grant({ uses: 10, budget: { path: "/amount", max: 10 } }) });
    expect((await runtime.invoke("refund", { customerId: "c_ada", amount: 10 }, { actor: dana, context })).status).toBe("completed");
    approvalOf(await runtime.invoke("refund", { customerId: "c_ada", amount: 0 }, { actor: dana, context }));
    expect(await runtime.grants.get(issued.id)).toMatchObject({ status: "exhausted", usesLeft: 9, spent: 10 });
    expect(cap.ran).toHaveLength(1);
  });

  it("SI-13: a grant stored with uses: 0 (the coordinator's own createGrant, valid terms otherwise) covers nothing", async () => {
    const cap = refunds();
    const { runtime, coordinator } = grantRuntime({ refund: cap.procedure });
    const model = await runtime.grants.issue({ capabilityId: "refund", actor: dana, surface: "direct", issuers: [priya], grant: grant({ uses: 1 }) });
    expect((await runtime.invoke("refund", call, { actor: dana, context })).status).toBe("completed");
    const { status: _s, usesLeft: _u, spent: _p, revoked: _r, ...terms } = model;
    const zero = await coordinator.createGrant!({ ...terms, id: "grt_zero", uses: 0 });
    expect(zero).toMatchObject({ status: "exhausted", usesLeft: 0 });
    for (let i = 0; i < 3; i++) approvalOf(await runtime.invoke("refund", call, { actor: dana, context }));
    expect(cap.ran).toHaveLength(1);
    expect((await coordinator.getGrant!("grt_zero"))!.usesLeft).toBe(0);
  });

  // A Date subclass is judged by the instant it holds, never by what its own getTime answers: read at the lookup,
  // one holding the present covers as the present does, one use per call (and past expiresAt, below, nothing).
  for (const [name, lying] of [
    ["NaN", () => new (class extends Date { override getTime() { return Number.NaN; } })()],
    ["a string", () => new (class extends Date { override getTime() { return "0" as unknown as number; } })()],
    ["an object", () => new (class extends Date { override getTime() { return { valueOf: () => 0 } as unknown as number; } })()],
  ] as const) {
    for (const path of ["same-tick", "wrapped"] as const) {
      it(`SI-13: a Date subclass whose getTime answers ${name}, read at the lookup, is judged by the instant it holds (${path} store)`, async () => {
        const clock = lookupClock(lying);
        const { runtime, cap, issued } = await grantOnPath(path, clock.now, 2);
        for (let i = 0; i < 2; i++) expect((await runtime.invoke("refund", call, { actor: dana, context })).status).toBe("completed");
        approvalOf(await runtime.invoke("refund", call, { actor: dana, context }));
        expect(clock.served()).toBeGreaterThan(0);
        expect(cap.ran).toHaveLength(2);
        expect(await usesLeft(runtime, issued.id)).toBe(0);
      });
    }
  }

  for (const path of ["same-tick", "wrapped"] as const) {
    it(`SI-13: a runtime clock whose Date is past expiresAt but whose getTime lies (answers the issue time) covers nothing (${path} store)`, async () => {
      const issuedAt = Date.now();
      class LyingDate extends Date {
        override getTime() {
          return issuedAt;
        }
      }
      let reading: Date = new Date(issuedAt);
      const { runtime, cap, issued } = await grantOnPath(path, () => reading, 3);
      expect((await runtime.invoke("refund", call, { actor: dana, context })).status).toBe("completed");
      // Ten hours on: the Date itself (its time value, what toISOString and every audit timestamp show) is far past the
      // grant's one-hour life; only its overridden getTime still answers the issue instant.
      reading = new LyingDate(issuedAt + 10 * HOUR);
      expect(reading.toISOString()).toBe(new Date(issuedAt + 10 * HOUR).toISOString());
      approvalOf(await runtime.invoke("refund", call, { actor: dana, context }));
      expect(cap.ran).toHaveLength(1);
      expect(await usesLeft(runtime, issued.id)).toBe(2);
    });
  }
});
