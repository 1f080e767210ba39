// The invocation journal contract suite (docs/architecture/spec/distributed.md#distributed-5, docs/architecture/spec/distributed.md#distributed-10 J1–J8). Every journal runs it unchanged:
// core's in-memory one, @orpc-agent/postgres on PGlite and on a real server, third parties.
// It imports only vitest; the types below mirror core/server's structurally, so drift shows up as
// assignability errors where a package passes its journal in.
import { describe, expect, it } from "vitest";

export type ContractActorRef = { id: string; kind: "user" | "service" | "automation" | "anonymous"; via?: { id: string } };
export type ContractInvocationKey = { namespace: string; invocationId: string };
export type ContractInvocationState = "pending" | "claimed" | "settled" | "unknown";
export type ContractJournalOutcome = {
  status: "completed" | "approval-required" | "failed" | "cancelled" | "outcome-unknown";
  executionId: string;
  body: unknown;
};
export type ContractResolution = { kind: "applied" | "failed" | "not-applied"; by: ContractActorRef; note?: string; at: Date };
export type ContractInvocationRecord = ContractInvocationKey & {
  fingerprint: string;
  capabilityId: string;
  surface: "direct" | "aiSdk" | "mcp" | "workflow" | "test";
  actor: ContractActorRef;
  correlationId?: string;
  state: ContractInvocationState;
  unknownReason?: "lease-lapsed" | "interrupted";
  fence: number;
  leaseExpiresAt?: Date;
  approvalId?: string;
  suspension?: ContractJournalOutcome;
  outcome?: ContractJournalOutcome;
  resolution?: ContractResolution;
  createdAt: Date;
  updatedAt: Date;
};
export type ContractClaimResult = { kind: "claimed" | "existing"; record: ContractInvocationRecord } | { kind: "conflict" };
export type ContractBeginEntry = Pick<
  ContractInvocationRecord,
  "namespace" | "invocationId" | "fingerprint" | "capabilityId" | "surface" | "actor" | "correlationId"
> & { leaseExpiresAt: Date };
export type ContractFinish =
  | { state: "settled"; outcome: ContractJournalOutcome }
  | { state: "pending"; approvalId: string; suspension: ContractJournalOutcome }
  | { state: "unknown"; reason: "interrupted" };

export interface ContractJournal {
  readonly durable: boolean;
  begin(e: ContractBeginEntry): Promise<ContractClaimResult>;
  claimSuspended(k: ContractInvocationKey, approvalId: string, leaseExpiresAt: Date): Promise<ContractClaimResult>;
  renew(k: ContractInvocationKey, fence: number, leaseExpiresAt: Date): Promise<boolean>;
  finish(k: ContractInvocationKey, fence: number, to: ContractFinish): Promise<boolean>;
  get(k: ContractInvocationKey): Promise<ContractInvocationRecord | null>;
  getByApproval(namespace: string, approvalId: string): Promise<ContractInvocationRecord | null>;
  resolve(
    k: ContractInvocationKey,
    expectedFence: number,
    to: { state: "settled"; outcome: ContractJournalOutcome } | { state: "pending" },
    r: ContractResolution,
  ): Promise<ContractInvocationRecord | null>;
  list?(f: { namespace: string; state?: ContractInvocationState; updatedBefore?: Date; limit?: number }): Promise<ContractInvocationRecord[]>;
}

/** A settable clock; `now()` returns a fresh `Date` each call. */
export type ContractJournalClock = { now: () => Date; advance(ms: number): void };

export function journalClock(startIso = "2030-01-01T00:00:00.000Z"): ContractJournalClock {
  let current = Date.parse(startIso);
  return { now: () => new Date(current), advance: (ms) => void (current += ms) };
}

const LEASE_MS = 30_000;
const ACTOR: ContractActorRef = { id: "u_dana", kind: "user" };
const MANAGER: ContractActorRef = { id: "u_ops", kind: "user" };

/**
 * An RPC-JSON-encoded envelope as the invocation service stores it: a Date and a Map in the output, encoded
 * with their meta, so a journal that rewrites JSON (key order aside) or drops `meta` fails J5.
 */
export const SAMPLE_COMPLETED_OUTCOME: ContractJournalOutcome = Object.freeze({
  status: "completed",
  executionId: "exe_11111111-1111-4111-8111-111111111111",
  body: {
    json: {
      protocol: 1,
      invocationId: "inv-sample",
      executionId: "exe_11111111-1111-4111-8111-111111111111",
      replayed: false,
      status: "completed",
      output: { at: "2030-01-02T03:04:05.000Z", labels: [["a", 1]], nested: { list: [1, "two", null, true], empty: {} }, unicode: "żółw ✓" },
    },
    meta: [
      [1, "output", "at"],
      [7, "output", "labels"],
    ],
  },
}) as ContractJournalOutcome;

export const SAMPLE_SUSPENSION: ContractJournalOutcome = Object.freeze({
  status: "approval-required",
  executionId: "exe_22222222-2222-4222-8222-222222222222",
  body: { json: { protocol: 1, status: "approval-required", approval: { id: "apr_sample", expiresAt: "2030-01-01T00:15:00.000Z" } }, meta: [] },
}) as ContractJournalOutcome;

let sequence = 0;

/**
 * Registers the journal contract checks. `make` receives the clock the journal must use to observe lapsed leases
 * and returns a fresh journal; each check also uses its own namespace, so a shared store is fine.
 */
export function describeInvocationJournalContract(name: string, make: (now: () => Date) => Promise<ContractJournal>): void {
  async function setup() {
    const clock = journalClock();
    const journal = await make(clock.now);
    sequence += 1;
    const namespace = `ns-${sequence}-${Math.random().toString(36).slice(2, 8)}`;
    const key = (invocationId = "inv-1"): ContractInvocationKey => ({ namespace, invocationId });
    const lease = (ms = LEASE_MS) => new Date(clock.now().getTime() + ms);
    const entry = (over: Partial<ContractBeginEntry> = {}): ContractBeginEntry => ({
      namespace,
      invocationId: "inv-1",
      fingerprint: "fp-1",
      capabilityId: "orders.refund",
      surface: "aiSdk",
      actor: { ...ACTOR },
      correlationId: "conv-7",
      leaseExpiresAt: lease(),
      ...over,
    });
    const claim = async (over: Partial<ContractBeginEntry> = {}) => {
      const result = await journal.begin(entry(over));
      expect(result.kind).toBe("claimed");
      return (result as { record: ContractInvocationRecord }).record;
    };
    /** A row suspended at the approval gate with `approvalId`. */
    const suspend = async (invocationId = "inv-1", approvalId = "apr_1") => {
      const record = await claim({ invocationId });
      expect(await journal.finish(key(invocationId), record.fence, { state: "pending", approvalId, suspension: SAMPLE_SUSPENSION })).toBe(true);
      return record;
    };
    const resolution = (kind: ContractResolution["kind"]): ContractResolution => ({ kind, by: { ...MANAGER }, note: "checked the ledger", at: clock.now() });
    return { clock, journal, namespace, key, lease, entry, claim, suspend, resolution };
  }

  describe(`invocation journal contract: ${name}`, () => {
    it("begin inserts a claimed row at fence 1 with every field, readable by get", async () => {
      const { journal, key, entry, lease } = await setup();
      const expires = lease();
      const result = await journal.begin(entry({ leaseExpiresAt: expires }));
      expect(result.kind).toBe("claimed");
      for (const record of [(result as { record: ContractInvocationRecord }).record, await journal.get(key())]) {
        expect(record).toMatchObject({
          ...key(),
          fingerprint: "fp-1",
          capabilityId: "orders.refund",
          surface: "aiSdk",
          actor: ACTOR,
          correlationId: "conv-7",
          state: "claimed",
          fence: 1,
        });
        expect(record!.leaseExpiresAt).toBeInstanceOf(Date);
        expect(record!.leaseExpiresAt!.getTime()).toBe(expires.getTime());
        expect(record!.createdAt).toBeInstanceOf(Date);
        expect(record!.updatedAt).toBeInstanceOf(Date);
        expect(record!.outcome).toBeUndefined();
        expect(record!.approvalId).toBeUndefined();
      }
      expect(await journal.get(key("inv-unseen"))).toBeNull();
    });

    it("the actor's acting agent (via) is stored and read back; an actor without one reads back without it", async () => {
      const { journal, key, claim, suspend, namespace } = await setup();
      const agent: ContractActorRef = { id: "u_dana", kind: "user", via: { id: "support-bot" } };
      const record = await claim({ invocationId: "inv-agent", actor: agent });
      expect(record.actor).toEqual(agent);
      expect((await journal.get(key("inv-agent")))!.actor).toEqual(agent);
      await journal.finish(key("inv-agent"), record.fence, { state: "pending", approvalId: "apr_agent", suspension: SAMPLE_SUSPENSION });
      expect((await journal.getByApproval(namespace, "apr_agent"))!.actor).toEqual(agent);
      await suspend("inv-user", "apr_user");
      expect((await journal.get(key("inv-user")))!.actor).toEqual(ACTOR);
    });

    it("J1: of concurrent begins on one key exactly one claims; the others see the existing claim", async () => {
      const { journal, entry } = await setup();
      const results = await Promise.all(Array.from({ length: 16 }, () => journal.begin(entry())));
      expect(results.filter((r) => r.kind === "claimed")).toHaveLength(1);
      for (const r of results.filter((r) => r.kind !== "claimed")) {
        expect(r.kind).toBe("existing");
        expect((r as { record: ContractInvocationRecord }).record).toMatchObject({ state: "claimed", fence: 1 });
      }
    });

    it("J1: keys are per namespace and per invocation id", async () => {
      const { journal, entry, namespace } = await setup();
      const results = await Promise.all([
        journal.begin(entry()),
        journal.begin(entry({ invocationId: "inv-2" })),
        journal.begin(entry({ namespace: `${namespace}-other` })),
      ]);
      expect(results.map((r) => r.kind)).toEqual(["claimed", "claimed", "claimed"]);
    });

    it("J2: renew and finish need the current fence; a superseded holder is rejected", async () => {
      const { journal, key, claim, clock, lease, resolution } = await setup();
      const first = await claim();
      expect(await journal.renew(key(), first.fence + 1, lease())).toBe(false);
      expect(await journal.finish(key(), first.fence + 1, { state: "settled", outcome: SAMPLE_COMPLETED_OUTCOME })).toBe(false);
      expect(await journal.renew(key(), first.fence, lease())).toBe(true);
      // The holder lapses, the application releases the row, and a new worker re-claims it at fence + 1.
      clock.advance(LEASE_MS + 1);
      expect((await journal.resolve(key(), first.fence, { state: "pending" }, resolution("not-applied")))?.state).toBe("pending");
      const second = await claim();
      expect(second.fence).toBe(first.fence + 1);
      expect(await journal.renew(key(), first.fence, lease())).toBe(false);
      expect(await journal.finish(key(), first.fence, { state: "settled", outcome: SAMPLE_COMPLETED_OUTCOME })).toBe(false);
      expect(await journal.get(key())).toMatchObject({ state: "claimed", fence: second.fence });
      expect(await journal.finish(key(), second.fence, { state: "settled", outcome: SAMPLE_COMPLETED_OUTCOME })).toBe(true);
    });

    it("J2: a late finish by the current holder after its lease lapsed is accepted: no newer holder exists", async () => {
      const { journal, key, claim, clock } = await setup();
      const record = await claim();
      clock.advance(LEASE_MS + 5_000);
      expect((await journal.get(key()))?.state).toBe("unknown");
      expect(await journal.finish(key(), record.fence, { state: "settled", outcome: SAMPLE_COMPLETED_OUTCOME })).toBe(true);
      expect(await journal.get(key())).toMatchObject({ state: "settled", fence: record.fence });
    });

    it("J3: a lapsed claim reads unknown/lease-lapsed and is never claimable again, by begin or claimSuspended", async () => {
      const { journal, key, claim, entry, clock, lease } = await setup();
      const record = await claim();
      clock.advance(LEASE_MS + 1);
      const read = await journal.get(key());
      expect(read).toMatchObject({ state: "unknown", unknownReason: "lease-lapsed", fence: record.fence });
      expect(read!.leaseExpiresAt?.getTime()).toBe(record.leaseExpiresAt!.getTime());
      const again = await journal.begin(entry({ leaseExpiresAt: lease() }));
      expect(again.kind).toBe("existing");
      expect((again as { record: ContractInvocationRecord }).record).toMatchObject({ state: "unknown", unknownReason: "lease-lapsed", fence: record.fence });
    });

    it("J3: a lapsed resume claim of a suspended row stays unclaimable", async () => {
      const { journal, key, suspend, clock, lease } = await setup();
      await suspend("inv-1", "apr_1");
      const resumed = await journal.claimSuspended(key(), "apr_1", lease());
      expect(resumed.kind).toBe("claimed");
      clock.advance(LEASE_MS + 1);
      const again = await journal.claimSuspended(key(), "apr_1", lease());
      expect(again.kind).toBe("existing");
      expect((again as { record: ContractInvocationRecord }).record).toMatchObject({ state: "unknown", unknownReason: "lease-lapsed" });
    });

    it("J4: resolve is refused for a live claim, a settled row, a suspended row and a wrong fence", async () => {
      const { journal, key, claim, suspend, resolution, clock } = await setup();
      const live = await claim();
      expect(await journal.resolve(key(), live.fence, { state: "pending" }, resolution("not-applied"))).toBeNull();
      expect(await journal.finish(key(), live.fence, { state: "settled", outcome: SAMPLE_COMPLETED_OUTCOME })).toBe(true);
      expect(await journal.resolve(key(), live.fence, { state: "settled", outcome: SAMPLE_COMPLETED_OUTCOME }, resolution("applied"))).toBeNull();
      await suspend("inv-2", "apr_2");
      expect(await journal.resolve(key("inv-2"), 1, { state: "pending" }, resolution("not-applied"))).toBeNull();
      const lapsing = await claim({ invocationId: "inv-3" });
      clock.advance(LEASE_MS + 1);
      expect(await journal.resolve(key("inv-3"), lapsing.fence + 1, { state: "pending" }, resolution("not-applied"))).toBeNull();
      expect(await journal.get(key("inv-3"))).toMatchObject({ state: "unknown", fence: lapsing.fence });
      expect(await journal.get(key())).toMatchObject({ state: "settled" });
    });

    it("J4: an interrupted row resolved applied settles with the given outcome and the resolution record", async () => {
      const { journal, key, claim, resolution } = await setup();
      const record = await claim();
      expect(await journal.finish(key(), record.fence, { state: "unknown", reason: "interrupted" })).toBe(true);
      expect(await journal.get(key())).toMatchObject({ state: "unknown", unknownReason: "interrupted" });
      const r = resolution("applied");
      const resolved = await journal.resolve(key(), record.fence, { state: "settled", outcome: SAMPLE_COMPLETED_OUTCOME }, r);
      expect(resolved).toMatchObject({ state: "settled", fence: record.fence, outcome: SAMPLE_COMPLETED_OUTCOME });
      expect(resolved!.unknownReason).toBeUndefined();
      expect(resolved!.resolution).toMatchObject({ kind: "applied", by: MANAGER, note: "checked the ledger" });
      expect(resolved!.resolution!.at).toBeInstanceOf(Date);
      expect(resolved!.resolution!.at.getTime()).toBe(r.at.getTime());
      expect(await journal.get(key())).toEqual(resolved);
    });

    it("J4: not-applied releases a lapsed claim to pending; the same fingerprint re-claims it at fence + 1", async () => {
      const { journal, key, claim, entry, clock, resolution } = await setup();
      const record = await claim();
      clock.advance(LEASE_MS + 1);
      const released = await journal.resolve(key(), record.fence, { state: "pending" }, resolution("not-applied"));
      expect(released).toMatchObject({ state: "pending", fence: record.fence, resolution: { kind: "not-applied" } });
      expect(released!.approvalId).toBeUndefined();
      expect(released!.leaseExpiresAt).toBeUndefined();
      expect((await journal.begin(entry({ fingerprint: "fp-other" }))).kind).toBe("conflict");
      const reclaimed = await journal.begin(entry({ leaseExpiresAt: new Date(clock.now().getTime() + LEASE_MS) }));
      expect(reclaimed.kind).toBe("claimed");
      expect((reclaimed as { record: ContractInvocationRecord }).record).toMatchObject({ state: "claimed", fence: record.fence + 1 });
    });

    it("J4: a not-applied suspended row stays suspended: begin answers it, claimSuspended re-claims at fence + 1", async () => {
      const { journal, key, suspend, entry, clock, lease, resolution } = await setup();
      await suspend("inv-1", "apr_1");
      const resumed = await journal.claimSuspended(key(), "apr_1", lease());
      expect(resumed.kind).toBe("claimed");
      const fence = (resumed as { record: ContractInvocationRecord }).record.fence;
      expect(fence).toBe(2);
      clock.advance(LEASE_MS + 1);
      const released = await journal.resolve(key(), fence, { state: "pending" }, resolution("not-applied"));
      expect(released).toMatchObject({ state: "pending", approvalId: "apr_1", suspension: SAMPLE_SUSPENSION, fence });
      const begun = await journal.begin(entry({ leaseExpiresAt: lease() }));
      expect(begun.kind).toBe("existing");
      expect((begun as { record: ContractInvocationRecord }).record).toMatchObject({ state: "pending", approvalId: "apr_1" });
      const again = await journal.claimSuspended(key(), "apr_1", lease());
      expect(again.kind).toBe("claimed");
      expect((again as { record: ContractInvocationRecord }).record.fence).toBe(fence + 1);
    });

    it("J5: stored outcomes and suspensions replay exactly, including the encoded Date and Map meta", async () => {
      const { journal, key, claim, suspend, entry, namespace } = await setup();
      const record = await claim();
      expect(await journal.finish(key(), record.fence, { state: "settled", outcome: SAMPLE_COMPLETED_OUTCOME })).toBe(true);
      const settled = await journal.get(key());
      expect(settled).toMatchObject({ state: "settled" });
      expect(settled!.outcome).toEqual(SAMPLE_COMPLETED_OUTCOME);
      expect(settled!.leaseExpiresAt).toBeUndefined();
      const replay = await journal.begin(entry());
      expect(replay.kind).toBe("existing");
      expect((replay as { record: ContractInvocationRecord }).record.outcome).toEqual(SAMPLE_COMPLETED_OUTCOME);

      await suspend("inv-2", "apr_2");
      const suspended = await journal.getByApproval(namespace, "apr_2");
      expect(suspended).toMatchObject({ ...key("inv-2"), state: "pending", approvalId: "apr_2" });
      expect(suspended!.suspension).toEqual(SAMPLE_SUSPENSION);
      expect(await journal.getByApproval(namespace, "apr_unknown")).toBeNull();
      expect(await journal.getByApproval(`${namespace}-other`, "apr_2")).toBeNull();
    });

    it("J5: returned records are detached copies", async () => {
      const { journal, key, claim } = await setup();
      const record = await claim();
      await journal.finish(key(), record.fence, { state: "settled", outcome: structuredClone(SAMPLE_COMPLETED_OUTCOME) });
      const read = (await journal.get(key()))!;
      read.state = "pending";
      read.actor.id = "mutated";
      (read.outcome!.body as { json: { status: string } }).json.status = "mutated";
      read.createdAt.setTime(0);
      const again = (await journal.get(key()))!;
      expect(again.state).toBe("settled");
      expect(again.actor.id).toBe(ACTOR.id);
      expect(again.outcome).toEqual(SAMPLE_COMPLETED_OUTCOME);
      expect(again.createdAt.getTime()).not.toBe(0);
    });

    it("J6: the same key with another fingerprint is a conflict in every state", async () => {
      const { journal, key, claim, entry, clock } = await setup();
      const record = await claim();
      const other = entry({ fingerprint: "fp-2" });
      expect(await journal.begin(other)).toEqual({ kind: "conflict" });
      await journal.finish(key(), record.fence, { state: "settled", outcome: SAMPLE_COMPLETED_OUTCOME });
      expect(await journal.begin(other)).toEqual({ kind: "conflict" });
      await claim({ invocationId: "inv-2" });
      clock.advance(LEASE_MS + 1);
      expect(await journal.begin(entry({ invocationId: "inv-2", fingerprint: "fp-2" }))).toEqual({ kind: "conflict" });
      expect(await journal.get(key())).toMatchObject({ fingerprint: "fp-1", state: "settled" });
    });

    it("J7: lapse follows the injected clock: claimed until the lease instant, lapsed from it; renew extends it", async () => {
      const { journal, key, claim, clock, lease } = await setup();
      const record = await claim({ leaseExpiresAt: lease(1_000) });
      clock.advance(999);
      expect((await journal.get(key()))?.state).toBe("claimed");
      expect(await journal.renew(key(), record.fence, lease(1_000))).toBe(true);
      clock.advance(999);
      expect((await journal.get(key()))?.state).toBe("claimed");
      clock.advance(1);
      expect(await journal.get(key())).toMatchObject({ state: "unknown", unknownReason: "lease-lapsed" });
    });

    it("finish records suspensions, settlements and interruptions, and clears the lease", async () => {
      const { journal, key, claim, namespace } = await setup();
      const a = await claim({ invocationId: "inv-a" });
      const b = await claim({ invocationId: "inv-b" });
      expect(await journal.finish(key("inv-a"), a.fence, { state: "pending", approvalId: "apr_a", suspension: SAMPLE_SUSPENSION })).toBe(true);
      expect(await journal.finish(key("inv-b"), b.fence, { state: "unknown", reason: "interrupted" })).toBe(true);
      expect(await journal.getByApproval(namespace, "apr_a")).toMatchObject({ state: "pending", approvalId: "apr_a", invocationId: "inv-a" });
      const interrupted = await journal.get(key("inv-b"));
      expect(interrupted).toMatchObject({ state: "unknown", unknownReason: "interrupted" });
      expect(interrupted!.leaseExpiresAt).toBeUndefined();
      // Nothing but a live claim at its fence can be finished.
      expect(await journal.finish(key("inv-a"), a.fence, { state: "settled", outcome: SAMPLE_COMPLETED_OUTCOME })).toBe(false);
      expect(await journal.finish(key("inv-b"), b.fence, { state: "settled", outcome: SAMPLE_COMPLETED_OUTCOME })).toBe(false);
      expect(await journal.finish(key("inv-unseen"), 1, { state: "settled", outcome: SAMPLE_COMPLETED_OUTCOME })).toBe(false);
    });

    it("claimSuspended claims only a pending row with that approval id", async () => {
      const { journal, key, suspend, claim, lease } = await setup();
      await suspend("inv-1", "apr_1");
      expect((await journal.claimSuspended(key(), "apr_other", lease())).kind).not.toBe("claimed");
      const live = await claim({ invocationId: "inv-2" });
      expect((await journal.claimSuspended(key("inv-2"), "apr_1", lease())).kind).not.toBe("claimed");
      expect(await journal.get(key("inv-2"))).toMatchObject({ state: "claimed", fence: live.fence });
      const claimed = await journal.claimSuspended(key(), "apr_1", lease());
      expect(claimed.kind).toBe("claimed");
      expect((claimed as { record: ContractInvocationRecord }).record).toMatchObject({ state: "claimed", fence: 2, approvalId: "apr_1" });
      const second = await journal.claimSuspended(key(), "apr_1", lease());
      expect(second.kind).toBe("existing");
    });

    it("J8: 64 concurrent begins give one winner; 32 concurrent claimSuspended give one winner", async () => {
      const { journal, key, entry, suspend, lease } = await setup();
      const begins = await Promise.all(Array.from({ length: 64 }, () => journal.begin(entry({ invocationId: "inv-hot" }))));
      expect(begins.filter((r) => r.kind === "claimed")).toHaveLength(1);
      expect(begins.filter((r) => r.kind === "conflict")).toHaveLength(0);
      await suspend("inv-s", "apr_s");
      const resumes = await Promise.all(Array.from({ length: 32 }, () => journal.claimSuspended(key("inv-s"), "apr_s", lease())));
      expect(resumes.filter((r) => r.kind === "claimed")).toHaveLength(1);
      expect(await journal.get(key("inv-s"))).toMatchObject({ state: "claimed", fence: 2 });
    });

    it("J8: a late finish racing resolve on a lapsed claim: exactly one wins and the row reflects it", async () => {
      const { journal, key, claim, clock, resolution } = await setup();
      for (let i = 0; i < 8; i++) {
        const id = `inv-race-${i}`;
        const record = await claim({ invocationId: id });
        clock.advance(LEASE_MS + 1);
        const [finished, resolved] = await Promise.all([
          journal.finish(key(id), record.fence, { state: "settled", outcome: SAMPLE_COMPLETED_OUTCOME }),
          journal.resolve(key(id), record.fence, { state: "pending" }, resolution("not-applied")),
        ]);
        expect([finished, resolved !== null].filter(Boolean)).toHaveLength(1);
        expect((await journal.get(key(id)))?.state).toBe(finished ? "settled" : "pending");
      }
    });

    it("J8: many keys, each begun by several callers at once, each get exactly one winner", async () => {
      const { journal, entry } = await setup();
      const keys = Array.from({ length: 50 }, (_, i) => `inv-k${i}`);
      const results = await Promise.all(keys.flatMap((invocationId) => Array.from({ length: 4 }, () => journal.begin(entry({ invocationId })))));
      expect(results.filter((r) => r.kind === "claimed")).toHaveLength(keys.length);
    });

    it("list, when implemented, filters by namespace, state, updatedBefore and limit", async () => {
      const { journal, claim, key, namespace, clock } = await setup();
      if (journal.list === undefined) return;
      const a = await claim({ invocationId: "inv-a" });
      clock.advance(10);
      await claim({ invocationId: "inv-b" });
      clock.advance(10);
      await journal.finish(key("inv-a"), a.fence, { state: "settled", outcome: SAMPLE_COMPLETED_OUTCOME });
      const all = await journal.list({ namespace });
      expect(all.map((r) => r.invocationId).sort()).toEqual(["inv-a", "inv-b"]);
      expect((await journal.list({ namespace, state: "settled" })).map((r) => r.invocationId)).toEqual(["inv-a"]);
      expect((await journal.list({ namespace, state: "claimed" })).map((r) => r.invocationId)).toEqual(["inv-b"]);
      expect((await journal.list({ namespace, updatedBefore: new Date(clock.now().getTime() - 5) })).map((r) => r.invocationId)).toEqual(["inv-b"]);
      expect(await journal.list({ namespace, limit: 1 })).toHaveLength(1);
      expect(await journal.list({ namespace: `${namespace}-other` })).toEqual([]);
    });
  });
}
