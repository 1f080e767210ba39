// The approval coordinator contract suite (docs/architecture/spec/adapters.md#adapters-5-2, docs/architecture/spec/core.md#core-10). Every coordinator
// runs it unchanged: core's in-memory one, @orpc-agent/postgres, approvalProbe, third parties.
// It imports only vitest; the types below mirror core's structurally, so drift shows up as
// assignability errors where a package passes its coordinator in.
import { describe, expect, it } from "vitest";

export type ContractActor = {
  id: string;
  kind: "user" | "service" | "automation" | "anonymous";
  displayName?: string;
  attributes?: Record<string, unknown>;
};

export type ContractApprovalStatus = "pending" | "approved" | "rejected" | "expired" | "cancelled" | "consumed";

export type ContractApprovalRequest = {
  id: string;
  capabilityId: string;
  surface: "direct" | "aiSdk" | "mcp" | "workflow" | "test";
  actor: ContractActor;
  input: unknown;
  inputHash: string;
  reasons: string[];
  types: string[];
  risk: "low" | "medium" | "high" | "critical";
  sideEffect: "none" | "read" | "write" | "destructive" | "external";
  requestedAt: Date;
  expiresAt: Date;
  /** Distinct approvers needed (absent: one). Cases 21-26. */
  quorum?: number;
};

export type ContractApprovalVote = { approver: ContractActor; at: Date; comment?: string };

/** `input`/`inputHash`: approve with changes, stored with the decision beside the request's own (case 27). */
export type ContractApprovalDecision = { status: "approved" | "rejected"; approver: ContractActor; comment?: string; input?: unknown; inputHash?: string };

export type ContractApprovalRecord = ContractApprovalRequest & {
  status: ContractApprovalStatus;
  decision?: ContractApprovalDecision & { decidedAt: Date };
  approvals?: ContractApprovalVote[];
  consumedByExecutionId?: string;
};

export type ContractListFilter = { status?: ContractApprovalStatus; capabilityId?: string; actorId?: string };

export interface ContractCoordinator {
  create(request: ContractApprovalRequest): Promise<ContractApprovalRecord>;
  get(id: string): Promise<ContractApprovalRecord | null>;
  decide(id: string, decision: ContractApprovalDecision): Promise<ContractApprovalRecord>;
  markConsumed(id: string, executionId: string): Promise<ContractApprovalRecord>;
  /** Optional in core's interface; the contract requires it (checks 11, 12, 16) and fails without it. */
  list?(filter?: ContractListFilter): Promise<ContractApprovalRecord[]>;
  /** Optional in core's interface (a sweep needs it); the contract requires it (cases 28-30) and fails without it. */
  claimNotice?(id: string, notice: string, at: Date): Promise<boolean>;
}

export type ContractClock = {
  now: () => Date;
  advance(ms: number): void;
  set(iso: string): void;
};

/** A settable clock; `now()` returns a fresh `Date` each call. */
export function contractClock(startIso: string): ContractClock {
  let current = parseInstant(startIso);
  return {
    now: () => new Date(current),
    advance(ms) {
      current += ms;
    },
    set(iso) {
      current = parseInstant(iso);
    },
  };
}

function parseInstant(iso: string): number {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) throw new TypeError(`contractClock: "${iso}" is not an ISO instant`);
  return ms;
}

export const CONTRACT_EXPIRY_MS = 15 * 60_000;

let nextRequestNumber = 0;

/** A complete pending-to-be request: id `apr_<n>`, requested at `now`, expiring 15 minutes later. */
export function makeApprovalRequest(
  now: Date | (() => Date),
  overrides: Partial<ContractApprovalRequest> = {},
): ContractApprovalRequest {
  const requestedAt = typeof now === "function" ? now() : new Date(now.getTime());
  nextRequestNumber += 1;
  return {
    id: `apr_${nextRequestNumber}`,
    capabilityId: "orders.refund",
    surface: "mcp",
    actor: { id: "user_requester", kind: "user", displayName: "Requester" },
    input: { orderId: "ord_1", amount: 25, lines: [{ sku: "sku_1", qty: 1 }] },
    inputHash: "9f2c4e8a1b7d3f6e0c5a9b8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d9e8f",
    reasons: ["Approval is required for orders.refund."],
    types: ["manager"],
    risk: "high",
    sideEffect: "write",
    requestedAt,
    expiresAt: new Date(requestedAt.getTime() + CONTRACT_EXPIRY_MS),
    ...overrides,
  };
}

const START = "2030-01-01T00:00:00.000Z";
const MANAGER: ContractActor = { id: "user_manager", kind: "user" };
const APPROVE: ContractApprovalDecision = { status: "approved", approver: MANAGER, comment: "ok" };
const REJECT: ContractApprovalDecision = { status: "rejected", approver: MANAGER };

function requireList(coordinator: ContractCoordinator): NonNullable<ContractCoordinator["list"]> {
  expect(typeof coordinator.list, "the contract requires list()").toBe("function");
  return coordinator.list!.bind(coordinator);
}

function requireClaimNotice(coordinator: ContractCoordinator): NonNullable<ContractCoordinator["claimNotice"]> {
  expect(typeof coordinator.claimNotice, "the contract requires claimNotice()").toBe("function");
  return coordinator.claimNotice!.bind(coordinator);
}

function ids(records: readonly { id: string }[]): string[] {
  return records.map((r) => r.id).sort();
}

/**
 * Every refusal of `decide` is core's typed `CapabilityError` (docs/reference/errors.md), checked by shape so this
 * suite imports only vitest: the same code from every store, stage `approval`, the store's own words in `cause`.
 */
async function expectRefusal(promise: Promise<unknown>, code: string): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, `decide should have refused with ${code}`).toBeDefined();
  expect(error).toMatchObject({ name: "CapabilityError", code, stage: "approval" });
}

/** The code a losing `decide` gets once `winner` decided the record. */
function codeAfter(winner: ContractApprovalRecord): string {
  return winner.status === "rejected" ? "APPROVAL_REJECTED" : "APPROVAL_ALREADY_DECIDED";
}

function exactlyOneFulfilled(results: PromiseSettledResult<ContractApprovalRecord>[]): ContractApprovalRecord {
  const fulfilled = results.filter((r): r is PromiseFulfilledResult<ContractApprovalRecord> => r.status === "fulfilled");
  expect(fulfilled).toHaveLength(1);
  return fulfilled[0]!.value;
}

/**
 * Registers the coordinator contract checks. `make` receives the clock the coordinator must
 * use for lazy expiry and `decidedAt`, and returns a fresh, empty coordinator.
 */
export function describeApprovalCoordinatorContract(
  name: string,
  make: (now: () => Date) => Promise<ContractCoordinator>,
): void {
  async function setup() {
    const clock = contractClock(START);
    const coordinator = await make(clock.now);
    return { clock, coordinator };
  }

  describe(`approval coordinator contract: ${name}`, () => {
    it("1. create stores pending and returns every request field, without decision or consumption", async () => {
      const { clock, coordinator } = await setup();
      const request = makeApprovalRequest(clock.now);
      const created = await coordinator.create(request);
      for (const record of [created, await coordinator.get(request.id)]) {
        expect(record).not.toBeNull();
        expect(record!.status).toBe("pending");
        expect(record!.requestedAt).toBeInstanceOf(Date);
        expect(record!.expiresAt).toBeInstanceOf(Date);
        expect(record!.requestedAt.getTime()).toBe(request.requestedAt.getTime());
        expect(record!.expiresAt.getTime()).toBe(request.expiresAt.getTime());
        expect(record!).toMatchObject({
          id: request.id,
          capabilityId: request.capabilityId,
          surface: request.surface,
          actor: request.actor,
          input: request.input,
          inputHash: request.inputHash,
          reasons: request.reasons,
          types: request.types,
          risk: request.risk,
          sideEffect: request.sideEffect,
        });
        expect(record!.decision).toBeUndefined();
        expect(record!.consumedByExecutionId).toBeUndefined();
      }
    });

    it("2. create rejects a duplicate id and keeps the first record", async () => {
      const { clock, coordinator } = await setup();
      const request = makeApprovalRequest(clock.now);
      await coordinator.create(request);
      await expect(coordinator.create({ ...request, capabilityId: "other.capability" })).rejects.toThrow(/already exists/);
      expect((await coordinator.get(request.id))!.capabilityId).toBe(request.capabilityId);
    });

    it("3. an unknown id reads as null, and decide (INTERNAL_ERROR) / markConsumed reject it", async () => {
      const { coordinator } = await setup();
      expect(await coordinator.get("apr_unknown")).toBeNull();
      await expectRefusal(coordinator.decide("apr_unknown", APPROVE), "INTERNAL_ERROR");
      await expect(coordinator.markConsumed("apr_unknown", "exe_1")).rejects.toThrow(/was not found/);
    });

    it("4. returned records are detached copies", async () => {
      const { clock, coordinator } = await setup();
      const request = makeApprovalRequest(clock.now, { input: { nested: { value: "original" } } });
      const created = await coordinator.create(request);
      const snapshot = await coordinator.get(request.id);

      // Mutating the caller's request, or any returned record, must not reach the store.
      (request.input as { nested: { value: string } }).nested.value = "request-mutated";
      request.actor.id = "request-mutated";
      request.reasons.push("request-mutated");
      request.expiresAt.setTime(0);
      const mutate = (record: ContractApprovalRecord) => {
        (record.input as { nested: { value: string } }).nested.value = "mutated";
        record.actor.id = "mutated";
        record.reasons.push("mutated");
        record.types.push("mutated");
        record.requestedAt.setTime(0);
        record.expiresAt.setTime(0);
        record.status = "consumed";
        if (record.decision) {
          record.decision.approver.id = "mutated";
          record.decision.decidedAt.setTime(0);
        }
      };
      mutate(created);
      mutate((await coordinator.get(request.id))!);
      const decided = await coordinator.decide(request.id, APPROVE);
      mutate(decided);
      for (const record of await requireList(coordinator)()) mutate(record);

      const after = (await coordinator.get(request.id))!;
      expect(after.status).toBe("approved");
      expect(after.input).toEqual({ nested: { value: "original" } });
      expect(after.actor).toEqual(snapshot!.actor);
      expect(after.reasons).toEqual(snapshot!.reasons);
      expect(after.types).toEqual(snapshot!.types);
      expect(after.requestedAt.getTime()).toBe(snapshot!.requestedAt.getTime());
      expect(after.expiresAt.getTime()).toBe(snapshot!.expiresAt.getTime());
      expect(after.decision!.approver).toEqual(MANAGER);
      expect(after.decision!.decidedAt.getTime()).toBe(Date.parse(START));
    });

    it("5. input round-trips as JSON: strings, null, nested objects, absent; a Date comes back as its ISO string", async () => {
      const { clock, coordinator } = await setup();
      const nested = { a: { b: [1, "two", null, true, { c: 3.5 }] }, empty: {}, list: [] };
      const cases: { input: unknown; expected: unknown }[] = [
        { input: "abc", expected: "abc" },
        { input: null, expected: null },
        { input: nested, expected: structuredClone(nested) },
        { input: undefined, expected: undefined },
        {
          input: { at: new Date("2030-02-03T04:05:06.789Z"), items: [new Date("2031-01-01T00:00:00.000Z")] },
          expected: { at: "2030-02-03T04:05:06.789Z", items: ["2031-01-01T00:00:00.000Z"] },
        },
      ];
      for (const { input, expected } of cases) {
        const request = makeApprovalRequest(clock.now, { input });
        const created = await coordinator.create(request);
        const read = (await coordinator.get(request.id))!;
        for (const record of [created, read]) {
          if (expected === undefined) expect(record.input).toBeUndefined();
          else if (expected === null) expect(record.input).toBeNull();
          else expect(record.input).toStrictEqual(expected);
        }
      }
    });

    it("6. approve stores the approver, the comment and decidedAt from the injected clock", async () => {
      const { clock, coordinator } = await setup();
      const request = makeApprovalRequest(clock.now);
      await coordinator.create(request);
      clock.advance(90_000);
      const expectedDecidedAt = clock.now().getTime();
      const decided = await coordinator.decide(request.id, {
        status: "approved",
        approver: { id: "user_manager", kind: "user", displayName: "Manager" },
        comment: "looks right",
      });
      for (const record of [decided, (await coordinator.get(request.id))!]) {
        expect(record.status).toBe("approved");
        expect(record.decision!.status).toBe("approved");
        expect(record.decision!.approver).toEqual({ id: "user_manager", kind: "user", displayName: "Manager" });
        expect(record.decision!.comment).toBe("looks right");
        expect(record.decision!.decidedAt).toBeInstanceOf(Date);
        expect(record.decision!.decidedAt.getTime()).toBe(expectedDecidedAt);
        expect(record.consumedByExecutionId).toBeUndefined();
      }
    });

    it("7. reject stores rejected", async () => {
      const { clock, coordinator } = await setup();
      const request = makeApprovalRequest(clock.now);
      await coordinator.create(request);
      const decided = await coordinator.decide(request.id, REJECT);
      for (const record of [decided, (await coordinator.get(request.id))!]) {
        expect(record.status).toBe("rejected");
        expect(record.decision!.status).toBe("rejected");
        expect(record.decision!.approver).toEqual(MANAGER);
        expect(record.decision!.comment).toBeUndefined();
      }
    });

    it("8. a bad decision (INPUT_INVALID) or an ill-formed or anonymous approver (UNAUTHENTICATED) rejects before any change, for any id", async () => {
      const { clock, coordinator } = await setup();
      const request = makeApprovalRequest(clock.now);
      await coordinator.create(request);
      for (const id of [request.id, "apr_unknown"]) {
        const bad = (decision: unknown) => coordinator.decide(id, decision as ContractApprovalDecision);
        await expectRefusal(bad({ status: "maybe", approver: MANAGER }), "INPUT_INVALID");
        await expectRefusal(bad({ status: "expired", approver: MANAGER }), "INPUT_INVALID");
        await expectRefusal(bad({ approver: MANAGER }), "INPUT_INVALID");
        await expectRefusal(bad(null), "INPUT_INVALID");
        await expectRefusal(bad({ status: "approved", approver: MANAGER, comment: 42 }), "INPUT_INVALID");
        await expectRefusal(bad({ status: "approved" }), "UNAUTHENTICATED");
        await expectRefusal(bad({ status: "approved", approver: { id: "", kind: "user" } }), "UNAUTHENTICATED");
        await expectRefusal(bad({ status: "approved", approver: { id: "user_x", kind: "robot" } }), "UNAUTHENTICATED");
        await expectRefusal(bad({ status: "approved", approver: { id: 42, kind: "user" } }), "UNAUTHENTICATED");
        await expectRefusal(bad({ status: "approved", approver: { id: "user_x", kind: "user", via: { id: "" } } }), "UNAUTHENTICATED");
        // An approver someone can be held to (SI-4): never anonymous, approving or rejecting.
        await expectRefusal(bad({ status: "approved", approver: { id: "user_x", kind: "anonymous" } }), "UNAUTHENTICATED");
        await expectRefusal(bad({ status: "rejected", approver: { id: "user_x", kind: "anonymous" } }), "UNAUTHENTICATED");
      }

      const record = (await coordinator.get(request.id))!;
      expect(record.status).toBe("pending");
      expect(record.decision).toBeUndefined();
      expect((await coordinator.decide(request.id, APPROVE)).status).toBe("approved");
    });

    it("9. deciding a record that is no longer pending rejects with the code of its status and keeps the first decision", async () => {
      const { clock, coordinator } = await setup();
      const approved = makeApprovalRequest(clock.now);
      const rejected = makeApprovalRequest(clock.now);
      await coordinator.create(approved);
      await coordinator.create(rejected);
      await coordinator.decide(approved.id, APPROVE);
      await coordinator.decide(rejected.id, REJECT);

      await expectRefusal(coordinator.decide(approved.id, REJECT), "APPROVAL_ALREADY_DECIDED");
      await expectRefusal(coordinator.decide(approved.id, APPROVE), "APPROVAL_ALREADY_DECIDED");
      await expectRefusal(coordinator.decide(rejected.id, APPROVE), "APPROVAL_REJECTED");
      await expectRefusal(coordinator.decide(rejected.id, REJECT), "APPROVAL_REJECTED");
      expect((await coordinator.get(approved.id))!.decision!.status).toBe("approved");
      expect((await coordinator.get(rejected.id))!.status).toBe("rejected");

      await coordinator.markConsumed(approved.id, "exe_1");
      await expectRefusal(coordinator.decide(approved.id, APPROVE), "APPROVAL_CONSUMED");
      await expectRefusal(coordinator.decide(approved.id, REJECT), "APPROVAL_CONSUMED");
      expect((await coordinator.get(approved.id))!.status).toBe("consumed");
    });

    it("10. deciding an expired pending record rejects (APPROVAL_EXPIRED) and records nothing", async () => {
      const { clock, coordinator } = await setup();
      const request = makeApprovalRequest(clock.now);
      await coordinator.create(request);
      clock.advance(CONTRACT_EXPIRY_MS + 1);
      await expectRefusal(coordinator.decide(request.id, APPROVE), "APPROVAL_EXPIRED");
      await expectRefusal(coordinator.decide(request.id, REJECT), "APPROVAL_EXPIRED");
      const record = (await coordinator.get(request.id))!;
      expect(record.status).toBe("expired");
      expect(record.decision).toBeUndefined();
    });

    it("11. lazy expiry: pending 1 ms before expiresAt, expired 1 ms after, in get and list", async () => {
      const { clock, coordinator } = await setup();
      const list = requireList(coordinator);
      const request = makeApprovalRequest(clock.now);
      await coordinator.create(request);

      clock.set(new Date(request.expiresAt.getTime() - 1).toISOString());
      expect((await coordinator.get(request.id))!.status).toBe("pending");
      expect((await list()).map((r) => r.status)).toEqual(["pending"]);
      expect(ids(await list({ status: "pending" }))).toEqual([request.id]);
      expect(await list({ status: "expired" })).toEqual([]);

      clock.set(new Date(request.expiresAt.getTime() + 1).toISOString());
      expect((await coordinator.get(request.id))!.status).toBe("expired");
      expect((await list()).map((r) => r.status)).toEqual(["expired"]);
      expect(ids(await list({ status: "expired" }))).toEqual([request.id]);
      expect(await list({ status: "pending" })).toEqual([]);
    });

    it("12. expiry is strict: at now == expiresAt a record is pending and decidable, at +1 ms expired", async () => {
      const { clock, coordinator } = await setup();
      const list = requireList(coordinator);
      const decidedAtBoundary = makeApprovalRequest(clock.now);
      const leftPending = makeApprovalRequest(clock.now);
      await coordinator.create(decidedAtBoundary);
      await coordinator.create(leftPending);

      clock.set(decidedAtBoundary.expiresAt.toISOString());
      expect((await coordinator.get(leftPending.id))!.status).toBe("pending");
      expect(ids(await list({ status: "pending" }))).toEqual(ids([decidedAtBoundary, leftPending]));
      const decided = await coordinator.decide(decidedAtBoundary.id, APPROVE);
      expect(decided.status).toBe("approved");
      expect(decided.decision!.decidedAt.getTime()).toBe(decidedAtBoundary.expiresAt.getTime());

      clock.advance(1);
      expect((await coordinator.get(leftPending.id))!.status).toBe("expired");
      expect(ids(await list({ status: "expired" }))).toEqual([leftPending.id]);
      expect((await coordinator.get(decidedAtBoundary.id))!.status).toBe("approved");
    });

    it("13. only pending expires: an approved record stays approved and consumable past expiresAt", async () => {
      const { clock, coordinator } = await setup();
      const list = requireList(coordinator);
      const request = makeApprovalRequest(clock.now);
      await coordinator.create(request);
      await coordinator.decide(request.id, APPROVE);

      clock.advance(CONTRACT_EXPIRY_MS + 60_000);
      expect((await coordinator.get(request.id))!.status).toBe("approved");
      expect(ids(await list({ status: "approved" }))).toEqual([request.id]);
      expect(await list({ status: "expired" })).toEqual([]);
      const consumed = await coordinator.markConsumed(request.id, "exe_late");
      expect(consumed.status).toBe("consumed");
      expect(consumed.consumedByExecutionId).toBe("exe_late");
    });

    it("14. markConsumed consumes an approved record once and records the execution id", async () => {
      const { clock, coordinator } = await setup();
      const request = makeApprovalRequest(clock.now);
      await coordinator.create(request);
      await coordinator.decide(request.id, APPROVE);

      const consumed = await coordinator.markConsumed(request.id, "exe_1");
      for (const record of [consumed, (await coordinator.get(request.id))!]) {
        expect(record.status).toBe("consumed");
        expect(record.consumedByExecutionId).toBe("exe_1");
        expect(record.decision!.status).toBe("approved");
        expect(record.decision!.approver).toEqual(MANAGER);
      }
      await expect(coordinator.markConsumed(request.id, "exe_2")).rejects.toThrow(/cannot be consumed/);
      expect((await coordinator.get(request.id))!.consumedByExecutionId).toBe("exe_1");
    });

    it("15. pending, expired and rejected records cannot be consumed", async () => {
      const { clock, coordinator } = await setup();
      const pending = makeApprovalRequest(clock.now);
      const rejected = makeApprovalRequest(clock.now);
      const expiring = makeApprovalRequest(clock.now, { expiresAt: new Date(clock.now().getTime() + 1_000) });
      for (const request of [pending, rejected, expiring]) await coordinator.create(request);
      await coordinator.decide(rejected.id, REJECT);
      clock.advance(1_001);

      await expect(coordinator.markConsumed(pending.id, "exe_1")).rejects.toThrow(/cannot be consumed/);
      await expect(coordinator.markConsumed(rejected.id, "exe_2")).rejects.toThrow(/cannot be consumed/);
      await expect(coordinator.markConsumed(expiring.id, "exe_3")).rejects.toThrow(/cannot be consumed/);
      expect((await coordinator.get(pending.id))!.status).toBe("pending");
      expect((await coordinator.get(rejected.id))!.status).toBe("rejected");
      expect((await coordinator.get(expiring.id))!.status).toBe("expired");
      for (const id of [pending.id, rejected.id, expiring.id]) {
        expect((await coordinator.get(id))!.consumedByExecutionId).toBeUndefined();
      }
    });

    it("16. list filters by status, capabilityId and actorId (the requester), alone and ANDed", async () => {
      const { clock, coordinator } = await setup();
      const list = requireList(coordinator);
      const alice: ContractActor = { id: "user_alice", kind: "user" };
      const bob: ContractActor = { id: "user_bob", kind: "user" };
      const a = makeApprovalRequest(clock.now, { capabilityId: "orders.refund", actor: alice });
      const b = makeApprovalRequest(clock.now, { capabilityId: "orders.refund", actor: bob });
      const c = makeApprovalRequest(clock.now, { capabilityId: "users.delete", actor: alice });
      const d = makeApprovalRequest(clock.now, { capabilityId: "users.delete", actor: bob });
      for (const request of [a, b, c, d]) await coordinator.create(request);
      // The approver is never the actorId that list matches.
      await coordinator.decide(b.id, { status: "approved", approver: alice });
      await coordinator.decide(c.id, REJECT);

      expect(ids(await list())).toEqual(ids([a, b, c, d]));
      expect(ids(await list({}))).toEqual(ids([a, b, c, d]));
      expect(ids(await list({ status: "pending" }))).toEqual(ids([a, d]));
      expect(ids(await list({ status: "approved" }))).toEqual([b.id]);
      expect(ids(await list({ capabilityId: "users.delete" }))).toEqual(ids([c, d]));
      expect(ids(await list({ actorId: "user_alice" }))).toEqual(ids([a, c]));
      expect(ids(await list({ status: "pending", actorId: "user_bob" }))).toEqual([d.id]);
      expect(ids(await list({ capabilityId: "orders.refund", actorId: "user_bob" }))).toEqual([b.id]);
      expect(ids(await list({ status: "rejected", capabilityId: "users.delete", actorId: "user_alice" }))).toEqual([c.id]);
      expect(await list({ status: "rejected", capabilityId: "orders.refund" })).toEqual([]);
      expect(await list({ actorId: "user_nobody" })).toEqual([]);
      expect(await list({ status: "consumed" })).toEqual([]);
    });

    it("17. of 20 concurrent decides exactly one fulfils, and its decision is the stored one", async () => {
      const { clock, coordinator } = await setup();
      const request = makeApprovalRequest(clock.now);
      await coordinator.create(request);
      const decisions = Array.from({ length: 20 }, (_, i): ContractApprovalDecision => ({
        status: i % 2 === 0 ? "approved" : "rejected",
        approver: { id: `user_approver_${i}`, kind: "user" },
      }));
      const results = await Promise.allSettled(decisions.map((d) => coordinator.decide(request.id, d)));
      const winner = exactlyOneFulfilled(results);
      for (const result of results) {
        if (result.status === "rejected") expect(result.reason).toMatchObject({ name: "CapabilityError", code: codeAfter(winner), stage: "approval" });
      }
      const stored = (await coordinator.get(request.id))!;
      expect(stored.status).toBe(winner.status);
      expect(stored.decision!.approver.id).toBe(winner.decision!.approver.id);
    });

    it("18. of 20 concurrent markConsumed calls exactly one fulfils, and its execution id is the stored one", async () => {
      const { clock, coordinator } = await setup();
      const request = makeApprovalRequest(clock.now);
      await coordinator.create(request);
      await coordinator.decide(request.id, APPROVE);
      const results = await Promise.allSettled(
        Array.from({ length: 20 }, (_, i) => coordinator.markConsumed(request.id, `exe_${i}`)),
      );
      const winner = exactlyOneFulfilled(results);
      for (const result of results) {
        if (result.status === "rejected") expect(String(result.reason)).toMatch(/cannot be consumed/);
      }
      const stored = (await coordinator.get(request.id))!;
      expect(stored.status).toBe("consumed");
      expect(stored.consumedByExecutionId).toBe(winner.consumedByExecutionId);
    });

    it("19. no record is consumed by nobody: markConsumed without an execution id rejects and leaves it approved", async () => {
      const { clock, coordinator } = await setup();
      const request = makeApprovalRequest(clock.now);
      await coordinator.create(request);
      await coordinator.decide(request.id, APPROVE);
      for (const executionId of ["", undefined, null, 7]) {
        await expect(coordinator.markConsumed(request.id, executionId as unknown as string)).rejects.toThrow(/execution id/);
      }
      const stored = (await coordinator.get(request.id))!;
      expect(stored.status).toBe("approved");
      expect(stored.consumedByExecutionId).toBeUndefined();
    });

    it("20. an operator finds every consumed record with its consuming execution id through list({ status: 'consumed' })", async () => {
      const { clock, coordinator } = await setup();
      const list = requireList(coordinator);
      const [a, b, open] = [makeApprovalRequest(clock.now), makeApprovalRequest(clock.now), makeApprovalRequest(clock.now)];
      for (const request of [a, b, open]) {
        await coordinator.create(request);
        await coordinator.decide(request.id, APPROVE);
      }
      await coordinator.markConsumed(a.id, "exe_a");
      await coordinator.markConsumed(b.id, "exe_b");
      const consumed = await list({ status: "consumed" });
      expect(consumed.map((r) => [r.id, r.consumedByExecutionId]).sort()).toEqual([[a.id, "exe_a"], [b.id, "exe_b"]].sort());
    });

    // Quorum approvals (docs/guides/quorum-approvals.md): N distinct approvers by id, one rejection rejects, expiry
    // applies to the whole request, and compare-and-set per decision never counts an approver twice.
    it("21. a quorum record starts pending with an empty approvals list; a quorum of 1 is stored as the default; an invalid quorum is refused", async () => {
      const { clock, coordinator } = await setup();
      const four = makeApprovalRequest(clock.now, { quorum: 2 });
      for (const record of [await coordinator.create(four), (await coordinator.get(four.id))!]) {
        expect(record.status).toBe("pending");
        expect(record.quorum).toBe(2);
        expect(record.approvals).toEqual([]);
        expect(record.decision).toBeUndefined();
      }
      const single = makeApprovalRequest(clock.now, { quorum: 1 });
      for (const record of [await coordinator.create(single), (await coordinator.get(single.id))!]) {
        expect(record.quorum).toBeUndefined();
        expect(record.approvals).toBeUndefined();
      }
      const plain = await coordinator.create(makeApprovalRequest(clock.now));
      expect(plain.quorum).toBeUndefined();
      expect(plain.approvals).toBeUndefined();
      for (const quorum of [0, -1, 1.5, Number.NaN, "2"]) {
        const bad = makeApprovalRequest(clock.now, { quorum: quorum as number });
        await expect(coordinator.create(bad)).rejects.toThrow(/Invalid quorum/);
        expect(await coordinator.get(bad.id)).toBeNull();
      }
    });

    it("22. approvals short of the quorum stay pending and are listed in order; the one that completes it approves", async () => {
      const { clock, coordinator } = await setup();
      const list = requireList(coordinator);
      const request = makeApprovalRequest(clock.now, { quorum: 3 });
      await coordinator.create(request);
      const first = await coordinator.decide(request.id, { status: "approved", approver: { id: "user_a", kind: "user" }, comment: "fine" });
      const firstAt = clock.now().getTime();
      expect(first.status).toBe("pending");
      expect(first.decision).toBeUndefined();
      expect(first.approvals!.map((v) => [v.approver.id, v.at.getTime(), v.comment])).toEqual([["user_a", firstAt, "fine"]]);
      expect(ids(await list({ status: "pending" }))).toEqual([request.id]);
      await expect(coordinator.markConsumed(request.id, "exe_early")).rejects.toThrow(/cannot be consumed/);

      clock.advance(1_000);
      const second = await coordinator.decide(request.id, { status: "approved", approver: { id: "user_b", kind: "service" } });
      expect(second.status).toBe("pending");
      expect(second.approvals!.map((v) => v.approver.id)).toEqual(["user_a", "user_b"]);
      expect(second.approvals![1]!.comment).toBeUndefined();

      clock.advance(1_000);
      const third = await coordinator.decide(request.id, { status: "approved", approver: { id: "user_c", kind: "user" }, comment: "last" });
      const stored = (await coordinator.get(request.id))!;
      for (const record of [third, stored]) {
        expect(record.status).toBe("approved");
        expect(record.quorum).toBe(3);
        expect(record.approvals!.map((v) => v.approver.id)).toEqual(["user_a", "user_b", "user_c"]);
        expect(record.approvals![0]!.at.getTime()).toBe(firstAt);
        expect(record.decision!.status).toBe("approved");
        expect(record.decision!.approver.id).toBe("user_c");
        expect(record.decision!.comment).toBe("last");
        expect(record.decision!.decidedAt.getTime()).toBe(clock.now().getTime());
      }
      // Detached: mutating a returned vote never reaches the store.
      stored.approvals![0]!.approver.id = "mutated";
      stored.approvals!.pop();
      expect((await coordinator.get(request.id))!.approvals!.map((v) => v.approver.id)).toEqual(["user_a", "user_b", "user_c"]);
      await expectRefusal(coordinator.decide(request.id, { status: "approved", approver: { id: "user_d", kind: "user" } }), "APPROVAL_ALREADY_DECIDED");
      expect((await coordinator.markConsumed(request.id, "exe_1")).consumedByExecutionId).toBe("exe_1");
    });

    it("23. the same approver id approving twice is refused (APPROVAL_ALREADY_DECIDED) and counted once, whatever its kind or comment", async () => {
      const { clock, coordinator } = await setup();
      const request = makeApprovalRequest(clock.now, { quorum: 2 });
      await coordinator.create(request);
      await coordinator.decide(request.id, { status: "approved", approver: { id: "user_a", kind: "user" } });
      await expectRefusal(coordinator.decide(request.id, { status: "approved", approver: { id: "user_a", kind: "user" } }), "APPROVAL_ALREADY_DECIDED");
      await expectRefusal(
        coordinator.decide(request.id, { status: "approved", approver: { id: "user_a", kind: "service" }, comment: "again" }),
        "APPROVAL_ALREADY_DECIDED",
      );
      const record = (await coordinator.get(request.id))!;
      expect(record.status).toBe("pending");
      expect(record.approvals!.map((v) => v.approver.id)).toEqual(["user_a"]);
      expect((await coordinator.decide(request.id, { status: "approved", approver: { id: "user_b", kind: "user" } })).status).toBe("approved");
    });

    it("24. one rejection rejects a quorum request, even after approvals; the approvals stay on record", async () => {
      const { clock, coordinator } = await setup();
      const request = makeApprovalRequest(clock.now, { quorum: 3 });
      await coordinator.create(request);
      await coordinator.decide(request.id, { status: "approved", approver: { id: "user_a", kind: "user" } });
      await coordinator.decide(request.id, { status: "approved", approver: { id: "user_b", kind: "user" } });
      const rejected = await coordinator.decide(request.id, { status: "rejected", approver: { id: "user_c", kind: "user" }, comment: "no" });
      for (const record of [rejected, (await coordinator.get(request.id))!]) {
        expect(record.status).toBe("rejected");
        expect(record.decision).toMatchObject({ status: "rejected", approver: { id: "user_c" }, comment: "no" });
        expect(record.approvals!.map((v) => v.approver.id)).toEqual(["user_a", "user_b"]);
      }
      await expectRefusal(coordinator.decide(request.id, { status: "approved", approver: { id: "user_d", kind: "user" } }), "APPROVAL_REJECTED");
      await expect(coordinator.markConsumed(request.id, "exe_1")).rejects.toThrow(/cannot be consumed/);

      // An approver who changes their mind may still veto: the rejection rejects.
      const vetoed = makeApprovalRequest(clock.now, { quorum: 2 });
      await coordinator.create(vetoed);
      await coordinator.decide(vetoed.id, { status: "approved", approver: { id: "user_a", kind: "user" } });
      expect((await coordinator.decide(vetoed.id, { status: "rejected", approver: { id: "user_a", kind: "user" } })).status).toBe("rejected");
    });

    it("25. expiry applies to the whole request: a partly approved record expires, cannot be decided or consumed", async () => {
      const { clock, coordinator } = await setup();
      const list = requireList(coordinator);
      const request = makeApprovalRequest(clock.now, { quorum: 2 });
      await coordinator.create(request);
      await coordinator.decide(request.id, { status: "approved", approver: { id: "user_a", kind: "user" } });
      clock.set(request.expiresAt.toISOString());
      expect((await coordinator.get(request.id))!.status).toBe("pending");
      clock.advance(1);
      const record = (await coordinator.get(request.id))!;
      expect(record.status).toBe("expired");
      expect(record.approvals!.map((v) => v.approver.id)).toEqual(["user_a"]);
      expect(ids(await list({ status: "expired" }))).toEqual([request.id]);
      await expectRefusal(coordinator.decide(request.id, { status: "approved", approver: { id: "user_b", kind: "user" } }), "APPROVAL_EXPIRED");
      await expect(coordinator.markConsumed(request.id, "exe_1")).rejects.toThrow(/cannot be consumed/);
      expect((await coordinator.get(request.id))!.approvals).toHaveLength(1);
    });

    it("26. of 50 concurrent decides by 10 approvers for a quorum of 3, exactly 3 count, each approver at most once; one consumption", async () => {
      const { clock, coordinator } = await setup();
      const request = makeApprovalRequest(clock.now, { quorum: 3 });
      await coordinator.create(request);
      const decisions = Array.from({ length: 50 }, (_, i): ContractApprovalDecision => ({
        status: "approved",
        approver: { id: `user_approver_${i % 10}`, kind: "user" },
      }));
      const results = await Promise.allSettled(decisions.map((d) => coordinator.decide(request.id, d)));
      const fulfilled = results.filter((r): r is PromiseFulfilledResult<ContractApprovalRecord> => r.status === "fulfilled").map((r) => r.value);
      expect(fulfilled).toHaveLength(3);
      expect(fulfilled.filter((r) => r.status === "approved")).toHaveLength(1);
      // A repeat while pending and a vote after the quorum completed are both APPROVAL_ALREADY_DECIDED.
      for (const result of results) {
        if (result.status === "rejected") expect(result.reason).toMatchObject({ name: "CapabilityError", code: "APPROVAL_ALREADY_DECIDED", stage: "approval" });
      }
      const stored = (await coordinator.get(request.id))!;
      expect(stored.status).toBe("approved");
      const counted = stored.approvals!.map((v) => v.approver.id);
      expect(counted).toHaveLength(3);
      expect(new Set(counted).size).toBe(3);
      expect(counted.sort()).toEqual(fulfilled.map((r) => r.approvals!.at(-1)!.approver.id).sort());
      expect(stored.decision!.approver.id).toBe(fulfilled.find((r) => r.status === "approved")!.decision!.approver.id);

      const consumptions = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => coordinator.markConsumed(request.id, `exe_${i}`)));
      expect(exactlyOneFulfilled(consumptions).consumedByExecutionId).toBe((await coordinator.get(request.id))!.consumedByExecutionId);
    });

    it("27. approve with changes: the edited input and its hash are stored with the decision, beside the request's, detached", async () => {
      const { clock, coordinator } = await setup();
      const request = makeApprovalRequest(clock.now);
      await coordinator.create(request);
      const edit = { orderId: "ord_1", amount: 10, lines: [{ sku: "sku_1", qty: 1 }], note: null };
      const editHash = "ab".repeat(32);
      const decided = await coordinator.decide(request.id, { status: "approved", approver: MANAGER, input: edit, inputHash: editHash });
      for (const record of [decided, (await coordinator.get(request.id))!, (await coordinator.list!({ status: "approved" })).find((r) => r.id === request.id)!]) {
        expect(record.input).toEqual(request.input);
        expect(record.inputHash).toBe(request.inputHash);
        expect(record.decision!.input).toEqual(edit);
        expect(record.decision!.inputHash).toBe(editHash);
      }
      (decided.decision!.input as { amount: number }).amount = 1_000;
      expect((await coordinator.get(request.id))!.decision!.input).toEqual(edit);
      // Still consumable as any approval, and the edit stays on the consumed record.
      const consumed = await coordinator.markConsumed(request.id, "exe_edit");
      expect(consumed.decision!.inputHash).toBe(editHash);
      expect((await coordinator.get(request.id))!.decision!.input).toEqual(edit);

      const plain = makeApprovalRequest(clock.now);
      await coordinator.create(plain);
      const approved = await coordinator.decide(plain.id, { status: "approved", approver: MANAGER });
      for (const record of [approved, (await coordinator.get(plain.id))!]) {
        expect(record.decision!.input).toBeUndefined();
        expect(record.decision!.inputHash).toBeUndefined();
      }
    });

    it("28. claimNotice: the first claim of a notice is true, a repeat false; other notices and approvals are claimed apart; the record is unchanged", async () => {
      const { clock, coordinator } = await setup();
      const claim = requireClaimNotice(coordinator);
      const request = makeApprovalRequest(clock.now);
      const other = makeApprovalRequest(clock.now);
      await coordinator.create(request);
      await coordinator.create(other);
      const before = await coordinator.get(request.id);
      expect(await claim(request.id, "escalate:60000", clock.now())).toBe(true);
      expect(await claim(request.id, "escalate:60000", clock.now())).toBe(false);
      clock.advance(60_000);
      expect(await claim(request.id, "escalate:60000", clock.now())).toBe(false);
      expect(await claim(request.id, "expiring", clock.now())).toBe(true);
      expect(await claim(other.id, "escalate:60000", clock.now())).toBe(true);
      expect(await claim("apr_unknown", "expiring", clock.now())).toBe(false);
      // A claim is no decision: the record reads as before, still pending and decidable.
      expect(await coordinator.get(request.id)).toEqual(before);
      expect((await coordinator.decide(request.id, APPROVE)).status).toBe("approved");
    });

    it("29. claimNotice only claims a pending, unexpired record (strict at expiresAt, on the instant given)", async () => {
      const { clock, coordinator } = await setup();
      const claim = requireClaimNotice(coordinator);
      const approved = makeApprovalRequest(clock.now);
      const rejected = makeApprovalRequest(clock.now);
      const consumed = makeApprovalRequest(clock.now);
      const expiring = makeApprovalRequest(clock.now);
      for (const request of [approved, rejected, consumed, expiring]) await coordinator.create(request);
      await coordinator.decide(approved.id, APPROVE);
      await coordinator.decide(rejected.id, REJECT);
      await coordinator.decide(consumed.id, APPROVE);
      await coordinator.markConsumed(consumed.id, "exe_1");
      for (const request of [approved, rejected, consumed]) expect(await claim(request.id, "expiring", clock.now())).toBe(false);
      expect(await claim(expiring.id, "a", expiring.expiresAt)).toBe(true);
      expect(await claim(expiring.id, "b", new Date(expiring.expiresAt.getTime() + 1))).toBe(false);
      expect((await coordinator.get(expiring.id))!.status).toBe("pending");
    });

    it("30. of 20 concurrent claims of one notice exactly one is true", async () => {
      const { clock, coordinator } = await setup();
      const claim = requireClaimNotice(coordinator);
      const request = makeApprovalRequest(clock.now);
      await coordinator.create(request);
      const results = await Promise.all(Array.from({ length: 20 }, () => claim(request.id, "escalate:1", clock.now())));
      expect(results.filter(Boolean)).toHaveLength(1);
    });
  });
}
