// The grant store contract suite (SI-13, docs/guides/standing-grants.md): the grant operations an approval coordinator
// adds for standing grants. Every coordinator that keeps grants runs it unchanged: core's in-memory one,
// @orpc-agent/postgres, third parties. Like the approval coordinator contract it imports only vitest; the types below
// mirror core's (packages/core/src/approvals/grants/types.ts) structurally.
import { describe, expect, it } from "vitest";
import { contractClock, makeApprovalRequest, type ContractActor, type ContractApprovalRecord, type ContractApprovalRequest } from "./approval-coordinator-contract.js";

export type ContractGrantScope = "conversation" | "actor";
export type ContractGrantCondition = { path: string; op: "eq" | "in" | "lt" | "lte" | "gt" | "gte" | "prefix"; value: unknown };

export type ContractGrantTerms = {
  id: string;
  capabilityId: string;
  definitionDigest: string;
  actor: ContractActor & { via?: { id: string; displayName?: string } };
  surface: "direct" | "aiSdk" | "mcp" | "workflow" | "test";
  scope: ContractGrantScope;
  conversationId?: string;
  types: string[];
  conditions: ContractGrantCondition[];
  uses: number;
  budget?: { path: string; max: number };
  issuers: ContractActor[];
  approvalId?: string;
  issuedAt: Date;
  expiresAt: Date;
  seal?: string;
};

export type ContractGrantRevocation = { by: ContractActor; at: Date; reason?: string };

export type ContractGrantRecord = ContractGrantTerms & {
  status: "active" | "exhausted" | "expired" | "revoked" | "void";
  usesLeft: number;
  spent?: number;
  revoked?: ContractGrantRevocation;
};

export type ContractGrantListFilter = { actorId?: string; capabilityId?: string; active?: boolean };

/** A coordinator that keeps grants: the approval side this suite touches (requests carry a conversation) and the five grant operations. */
export interface ContractGrantCoordinator {
  create(request: ContractApprovalRequest & { conversationId?: string }): Promise<ContractApprovalRecord & { conversationId?: string }>;
  get(id: string): Promise<(ContractApprovalRecord & { conversationId?: string }) | null>;
  list?(filter?: { status?: ContractApprovalRecord["status"] }): Promise<(ContractApprovalRecord & { conversationId?: string })[]>;
  createGrant?(terms: ContractGrantTerms): Promise<ContractGrantRecord>;
  getGrant?(id: string): Promise<ContractGrantRecord | null>;
  listGrants?(filter?: ContractGrantListFilter): Promise<ContractGrantRecord[]>;
  useGrant?(id: string, use: { now: Date; amount?: number }): Promise<ContractGrantRecord | null>;
  revokeGrant?(id: string, revocation: ContractGrantRevocation): Promise<ContractGrantRecord | null>;
}

type Required = {
  createGrant: NonNullable<ContractGrantCoordinator["createGrant"]>;
  getGrant: NonNullable<ContractGrantCoordinator["getGrant"]>;
  listGrants: NonNullable<ContractGrantCoordinator["listGrants"]>;
  useGrant: NonNullable<ContractGrantCoordinator["useGrant"]>;
  revokeGrant: NonNullable<ContractGrantCoordinator["revokeGrant"]>;
};

const START = "2030-01-01T00:00:00.000Z";
const HOUR = 3_600_000;
const DANA: ContractGrantTerms["actor"] = { id: "user_dana", kind: "user", via: { id: "agent_support" } };
const PRIYA: ContractActor = { id: "user_priya", kind: "user" };

let nextGrantNumber = 0;

/** Complete grant terms: id `grt_contract_<n>`, issued at `now`, one hour to live, 3 uses, no budget. */
export function makeGrantTerms(now: Date | (() => Date), overrides: Partial<ContractGrantTerms> = {}): ContractGrantTerms {
  const issuedAt = typeof now === "function" ? now() : new Date(now.getTime());
  nextGrantNumber += 1;
  // Fresh copies of the shared actors: a case may edit what it handed in.
  return {
    id: `grt_contract_${nextGrantNumber}`,
    capabilityId: "orders.refund",
    definitionDigest: "sha256:4f1c0b7a9e2d3c4b5a69788796a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7",
    actor: structuredClone(DANA),
    surface: "aiSdk",
    scope: "conversation",
    conversationId: "conv_1",
    types: ["manager"],
    conditions: [{ path: "/customerId", op: "eq", value: "c_ada" }],
    uses: 3,
    issuers: [structuredClone(PRIYA)],
    issuedAt,
    expiresAt: new Date(issuedAt.getTime() + HOUR),
    ...overrides,
  };
}

function ops(coordinator: ContractGrantCoordinator): Required {
  for (const name of ["createGrant", "getGrant", "listGrants", "useGrant", "revokeGrant"] as const) {
    expect(typeof coordinator[name], `the grant contract requires ${name}()`).toBe("function");
  }
  return {
    createGrant: coordinator.createGrant!.bind(coordinator),
    getGrant: coordinator.getGrant!.bind(coordinator),
    listGrants: coordinator.listGrants!.bind(coordinator),
    useGrant: coordinator.useGrant!.bind(coordinator),
    revokeGrant: coordinator.revokeGrant!.bind(coordinator),
  };
}

function termsOf(record: ContractGrantRecord): Omit<ContractGrantTerms, "issuedAt" | "expiresAt"> & { issuedAt: number; expiresAt: number } {
  const { status: _s, usesLeft: _u, spent: _sp, revoked: _r, ...terms } = record;
  return { ...terms, issuedAt: record.issuedAt.getTime(), expiresAt: record.expiresAt.getTime() };
}

function expectedTerms(terms: ContractGrantTerms): ReturnType<typeof termsOf> {
  return { ...JSON.parse(JSON.stringify(terms)), issuedAt: terms.issuedAt.getTime(), expiresAt: terms.expiresAt.getTime() };
}

/**
 * Registers the grant store contract checks. `make` receives the clock the coordinator must use for the status it
 * reports (`useGrant` judges expiry at the `now` it is handed), and returns a fresh, empty coordinator.
 */
export function describeGrantStoreContract(name: string, make: (now: () => Date) => Promise<ContractGrantCoordinator>): void {
  async function setup() {
    const clock = contractClock(START);
    const coordinator = await make(clock.now);
    return { clock, coordinator, grants: ops(coordinator) };
  }

  describe(`grant store contract: ${name}`, () => {
    it("G1. createGrant stores every term and returns the record: active, usesLeft = uses, no spent without a budget, the seal unchanged", async () => {
      const { clock, grants } = await setup();
      const terms = makeGrantTerms(clock.now, { seal: "v1.key_1.opaque-seal", approvalId: "apr_1" });
      const created = await grants.createGrant(terms);
      for (const record of [created, (await grants.getGrant(terms.id))!]) {
        expect(record).not.toBeNull();
        expect(record.issuedAt).toBeInstanceOf(Date);
        expect(record.expiresAt).toBeInstanceOf(Date);
        expect(termsOf(record)).toEqual(expectedTerms(terms));
        expect(record.status).toBe("active");
        expect(record.usesLeft).toBe(3);
        expect(record.spent).toBeUndefined();
        expect(record.revoked).toBeUndefined();
      }
    });

    it("G2. optional terms stay absent; a budget starts with spent 0; an actor scope has no conversation", async () => {
      const { clock, grants } = await setup();
      const { conversationId: _c, ...rest } = makeGrantTerms(clock.now, { scope: "actor", conditions: [], budget: { path: "/amount", max: 100 } });
      const created = await grants.createGrant(rest);
      expect(created.conversationId).toBeUndefined();
      expect(created.approvalId).toBeUndefined();
      expect(created.seal).toBeUndefined();
      expect(created.conditions).toEqual([]);
      expect(created.budget).toEqual({ path: "/amount", max: 100 });
      expect(created.spent).toBe(0);
      expect((await grants.getGrant(rest.id))!.spent).toBe(0);
    });

    it("G3. a duplicate id is refused and the first grant kept", async () => {
      const { clock, grants } = await setup();
      const terms = makeGrantTerms(clock.now);
      await grants.createGrant(terms);
      await expect(grants.createGrant({ ...terms, capabilityId: "other.capability" })).rejects.toThrow(/already exists/);
      expect((await grants.getGrant(terms.id))!.capabilityId).toBe("orders.refund");
    });

    it("G4. an unknown id: getGrant, useGrant and revokeGrant all answer null", async () => {
      const { clock, grants } = await setup();
      expect(await grants.getGrant("grt_unknown")).toBeNull();
      expect(await grants.useGrant("grt_unknown", { now: clock.now() })).toBeNull();
      expect(await grants.revokeGrant("grt_unknown", { by: PRIYA, at: clock.now() })).toBeNull();
    });

    it("G5. terms round-trip as JSON, strings exactly (no Unicode normalization), actor attributes and acting agent included", async () => {
      const { clock, grants } = await setup();
      const nfd = "cafe\u0301";
      const terms = makeGrantTerms(clock.now, {
        actor: { id: "user_dana", kind: "user", displayName: "Dana", attributes: { team: "support", level: 2 }, via: { id: "agent_support", displayName: "Support bot" } },
        conditions: [
          { path: "/customer/name", op: "prefix", value: nfd },
          { path: "/region", op: "in", value: ["eu", "us", null, { nested: [1, 2.5, true] }] },
          { path: "/a~1b/~0c/0", op: "lte", value: 1e2 },
        ],
        issuers: [PRIYA, { id: "user_sam", kind: "service" }],
      });
      const record = (await grants.createGrant(terms))!;
      expect(termsOf(record)).toEqual(expectedTerms(terms));
      expect((record.conditions[0]!.value as string).length).toBe(5);
      expect(record.conditions[0]!.value).toBe(nfd);
      expect(termsOf((await grants.getGrant(terms.id))!)).toEqual(expectedTerms(terms));
    });

    it("G6. returned records are detached copies; editing the terms handed in changes nothing stored", async () => {
      const { clock, grants } = await setup();
      const terms = makeGrantTerms(clock.now);
      const created = await grants.createGrant(terms);
      terms.actor.id = "mutated";
      terms.types.push("mutated");
      terms.conditions[0]!.value = "mutated";
      terms.expiresAt.setTime(0);
      const mutate = (record: ContractGrantRecord) => {
        record.actor.id = "mutated";
        record.types.push("mutated");
        record.conditions.push({ path: "", op: "eq", value: 1 });
        record.issuers[0]!.id = "mutated";
        record.expiresAt.setTime(Date.parse("2099-01-01T00:00:00.000Z"));
        record.usesLeft = 99;
        record.status = "active";
      };
      mutate(created);
      mutate((await grants.getGrant(terms.id))!);
      mutate((await grants.useGrant(terms.id, { now: clock.now() }))!);
      for (const record of await grants.listGrants()) mutate(record);
      const after = (await grants.getGrant(terms.id))!;
      expect(after.actor).toEqual(DANA);
      expect(after.types).toEqual(["manager"]);
      expect(after.conditions).toEqual([{ path: "/customerId", op: "eq", value: "c_ada" }]);
      expect(after.issuers).toEqual([PRIYA]);
      expect(after.expiresAt.getTime()).toBe(Date.parse(START) + HOUR);
      expect(after.usesLeft).toBe(2);
    });

    it("G7. useGrant takes one use per call and returns the updated record; once none is left it answers null and changes nothing", async () => {
      const { clock, grants } = await setup();
      const terms = makeGrantTerms(clock.now, { uses: 2 });
      await grants.createGrant(terms);
      const first = await grants.useGrant(terms.id, { now: clock.now() });
      expect(first).toMatchObject({ id: terms.id, usesLeft: 1, status: "active" });
      const second = await grants.useGrant(terms.id, { now: clock.now() });
      expect(second).toMatchObject({ usesLeft: 0, status: "exhausted" });
      expect(await grants.useGrant(terms.id, { now: clock.now() })).toBeNull();
      expect(await grants.getGrant(terms.id)).toMatchObject({ usesLeft: 0, status: "exhausted" });
    });

    it("G8. expiry is strict and judged at use.now: usable at exactly expiresAt, not a millisecond later; get reports it on the store's clock", async () => {
      const { clock, grants } = await setup();
      const terms = makeGrantTerms(clock.now);
      await grants.createGrant(terms);
      expect(await grants.useGrant(terms.id, { now: new Date(terms.expiresAt.getTime()) })).toMatchObject({ usesLeft: 2 });
      // The store's clock still reads START: the use is judged at the instant it is handed.
      expect(await grants.useGrant(terms.id, { now: new Date(terms.expiresAt.getTime() + 1) })).toBeNull();
      expect((await grants.getGrant(terms.id))!).toMatchObject({ status: "active", usesLeft: 2 });
      clock.set(terms.expiresAt.toISOString());
      expect((await grants.getGrant(terms.id))!.status).toBe("active");
      clock.advance(1);
      expect((await grants.getGrant(terms.id))!.status).toBe("expired");
      expect(await grants.listGrants({ active: true })).toEqual([]);
    });

    it("G9. a budget accumulates the amounts, never past max; exactly max fits, then the grant is exhausted", async () => {
      const { clock, grants } = await setup();
      const terms = makeGrantTerms(clock.now, { uses: 10, budget: { path: "/amount", max: 100 } });
      await grants.createGrant(terms);
      expect(await grants.useGrant(terms.id, { now: clock.now(), amount: 60 })).toMatchObject({ spent: 60, usesLeft: 9 });
      expect(await grants.useGrant(terms.id, { now: clock.now(), amount: 41 })).toBeNull();
      expect(await grants.getGrant(terms.id)).toMatchObject({ spent: 60, usesLeft: 9 });
      expect(await grants.useGrant(terms.id, { now: clock.now(), amount: 40 })).toMatchObject({ spent: 100, usesLeft: 8, status: "exhausted" });
      expect(await grants.useGrant(terms.id, { now: clock.now(), amount: 0 })).toBeNull();
    });

    it("G10. a budget grant refuses a missing, negative, non-finite or non-number amount, consuming nothing; -0 spends nothing", async () => {
      const { clock, grants } = await setup();
      const terms = makeGrantTerms(clock.now, { budget: { path: "/amount", max: 100 } });
      await grants.createGrant(terms);
      for (const amount of [undefined, -1, Number.NaN, Number.POSITIVE_INFINITY, "5" as unknown as number]) {
        expect(await grants.useGrant(terms.id, amount === undefined ? { now: clock.now() } : { now: clock.now(), amount })).toBeNull();
      }
      expect(await grants.getGrant(terms.id)).toMatchObject({ spent: 0, usesLeft: 3 });
      const used = (await grants.useGrant(terms.id, { now: clock.now(), amount: -0 }))!;
      expect(used.usesLeft).toBe(2);
      expect(used.spent === 0).toBe(true);
    });

    it("G11. the budget sum is double precision in every store: 0.1 then 0.2 does not fit under 0.3", async () => {
      const { clock, grants } = await setup();
      const terms = makeGrantTerms(clock.now, { budget: { path: "/amount", max: 0.3 } });
      await grants.createGrant(terms);
      expect(await grants.useGrant(terms.id, { now: clock.now(), amount: 0.1 })).toMatchObject({ spent: 0.1 });
      expect(await grants.useGrant(terms.id, { now: clock.now(), amount: 0.2 })).toBeNull();
      expect(await grants.useGrant(terms.id, { now: clock.now(), amount: 0.19 })).toMatchObject({ spent: 0.1 + 0.19 });
    });

    it("G12. without a budget the amount is ignored", async () => {
      const { clock, grants } = await setup();
      const terms = makeGrantTerms(clock.now);
      await grants.createGrant(terms);
      const used = (await grants.useGrant(terms.id, { now: clock.now(), amount: 1e9 }))!;
      expect(used.usesLeft).toBe(2);
      expect(used.spent).toBeUndefined();
    });

    it("G13. revokeGrant ends the grant, keeps the first revocation, and wins over exhausted and expired", async () => {
      const { clock, grants } = await setup();
      const terms = makeGrantTerms(clock.now, { uses: 1 });
      await grants.createGrant(terms);
      const at = clock.now();
      const revoked = (await grants.revokeGrant(terms.id, { by: PRIYA, at, reason: "customer asked" }))!;
      expect(revoked).toMatchObject({ status: "revoked", usesLeft: 1, revoked: { by: PRIYA, reason: "customer asked" } });
      expect(revoked.revoked!.at.getTime()).toBe(at.getTime());
      expect(await grants.useGrant(terms.id, { now: clock.now() })).toBeNull();
      clock.advance(5);
      const again = (await grants.revokeGrant(terms.id, { by: { id: "user_sam", kind: "user" }, at: clock.now() }))!;
      expect(again.revoked).toEqual({ by: PRIYA, at, reason: "customer asked" });
      clock.advance(2 * HOUR);
      expect((await grants.getGrant(terms.id))!.status).toBe("revoked");

      const spent = makeGrantTerms(clock.now, { uses: 1 });
      await grants.createGrant(spent);
      await grants.useGrant(spent.id, { now: clock.now() });
      expect((await grants.revokeGrant(spent.id, { by: PRIYA, at: clock.now() }))!).toMatchObject({ status: "revoked", usesLeft: 0 });
      expect((await grants.getGrant(spent.id))!.revoked!.reason).toBeUndefined();
    });

    it("G14. exhausted wins over expired", async () => {
      const { clock, grants } = await setup();
      const terms = makeGrantTerms(clock.now, { uses: 1 });
      await grants.createGrant(terms);
      await grants.useGrant(terms.id, { now: clock.now() });
      clock.advance(2 * HOUR);
      expect((await grants.getGrant(terms.id))!.status).toBe("exhausted");
    });

    it("G15. listGrants filters by capability, actor id and activity (fields AND), oldest issuedAt first, then by id", async () => {
      const { clock, grants } = await setup();
      const later = makeGrantTerms(new Date(Date.parse(START) + 1000), { id: "grt_c" });
      const b = makeGrantTerms(clock.now, { id: "grt_b" });
      const a = makeGrantTerms(clock.now, { id: "grt_a", capabilityId: "orders.cancel" });
      const other = makeGrantTerms(clock.now, { id: "grt_d", actor: { id: "user_eve", kind: "user" } });
      const spent = makeGrantTerms(clock.now, { id: "grt_e", uses: 1 });
      for (const terms of [later, b, a, other, spent]) await grants.createGrant(terms);
      await grants.useGrant("grt_e", { now: clock.now() });
      const idsOf = (records: ContractGrantRecord[]) => records.map((r) => r.id);
      expect(idsOf(await grants.listGrants())).toEqual(["grt_a", "grt_b", "grt_d", "grt_e", "grt_c"]);
      expect(idsOf(await grants.listGrants({}))).toEqual(["grt_a", "grt_b", "grt_d", "grt_e", "grt_c"]);
      expect(idsOf(await grants.listGrants({ capabilityId: "orders.refund" }))).toEqual(["grt_b", "grt_d", "grt_e", "grt_c"]);
      expect(idsOf(await grants.listGrants({ actorId: "user_dana", capabilityId: "orders.refund" }))).toEqual(["grt_b", "grt_e", "grt_c"]);
      expect(idsOf(await grants.listGrants({ actorId: "user_dana", capabilityId: "orders.refund", active: true }))).toEqual(["grt_b", "grt_c"]);
      expect(idsOf(await grants.listGrants({ active: false }))).toEqual(["grt_e"]);
      expect(await grants.listGrants({ actorId: "nobody" })).toEqual([]);
    });

    it("G16. SI-13: of 50 concurrent uses of a 3-use grant exactly 3 succeed, each taking a distinct use", async () => {
      const { clock, grants } = await setup();
      const terms = makeGrantTerms(clock.now, { uses: 3 });
      await grants.createGrant(terms);
      const results = await Promise.all(Array.from({ length: 50 }, () => grants.useGrant(terms.id, { now: clock.now() })));
      const used = results.filter((r): r is ContractGrantRecord => r !== null);
      expect(used).toHaveLength(3);
      expect(used.map((r) => r.usesLeft).sort()).toEqual([0, 1, 2]);
      expect((await grants.getGrant(terms.id))!.usesLeft).toBe(0);
    });

    it("G17. SI-13: concurrent budget uses never spend past max", async () => {
      const { clock, grants } = await setup();
      const terms = makeGrantTerms(clock.now, { uses: 1000, budget: { path: "/amount", max: 100 } });
      await grants.createGrant(terms);
      const results = await Promise.all(Array.from({ length: 40 }, (_, i) => grants.useGrant(terms.id, { now: clock.now(), amount: 7 + (i % 3) })));
      const used = results.filter((r): r is ContractGrantRecord => r !== null);
      const stored = (await grants.getGrant(terms.id))!;
      expect(stored.spent).toBeLessThanOrEqual(100);
      expect(stored.usesLeft).toBe(1000 - used.length);
      expect(Math.max(...used.map((r) => r.spent!))).toBe(stored.spent);
      expect(used.length).toBeGreaterThanOrEqual(11);
    });

    it("G18. SI-13: a use racing a revoke: once revokeGrant resolves no use succeeds, and uses never exceed the grant", async () => {
      const { clock, grants } = await setup();
      const terms = makeGrantTerms(clock.now, { uses: 100 });
      await grants.createGrant(terms);
      const racing = Array.from({ length: 30 }, () => grants.useGrant(terms.id, { now: clock.now() }));
      await grants.revokeGrant(terms.id, { by: PRIYA, at: clock.now() });
      const after = await Promise.all(Array.from({ length: 10 }, () => grants.useGrant(terms.id, { now: clock.now() })));
      expect(after.every((r) => r === null)).toBe(true);
      const succeeded = (await Promise.all(racing)).filter((r) => r !== null).length;
      expect((await grants.getGrant(terms.id))!.usesLeft).toBe(100 - succeeded);
    });

    it("G19. an approval request keeps the conversation it came from (create, get, list); absent stays absent", async () => {
      const { clock, coordinator } = await setup();
      const request = { ...makeApprovalRequest(clock.now), conversationId: "conv_ada_1" };
      expect((await coordinator.create(request)).conversationId).toBe("conv_ada_1");
      expect((await coordinator.get(request.id))!.conversationId).toBe("conv_ada_1");
      if (typeof coordinator.list === "function") {
        expect((await coordinator.list({ status: "pending" })).find((r) => r.id === request.id)!.conversationId).toBe("conv_ada_1");
      }
      const without = makeApprovalRequest(clock.now);
      await coordinator.create(without);
      expect((await coordinator.get(without.id))!.conversationId).toBeUndefined();
    });
  });
}
