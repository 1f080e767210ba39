// Raised from the mutation run: batch evaluation (docs/architecture/spec/core.md#core-3-1) fails closed on every odd return, stops exactly when
// the shared deadline is spent, records only what was decided, and releases its deadline timer.
import { afterEach, describe, expect, it, vi } from "vitest";
import { allow, requireApproval } from "../../../src/policy/decisions.js";
import { definePolicy } from "../../../src/policy/define-policy.js";
import { evaluatePolicyBatch, type PolicyBatchResult } from "../../../src/policy/evaluate-batch.js";
import type { AgentPolicy } from "../../../src/capability/types.js";
import { refundRequest } from "../../policy/refund-request.js";

const request = refundRequest();
const returning = (name: string, value: unknown): AgentPolicy => definePolicy(name, () => value as never);
const settle = async (batch: PolicyBatchResult | Promise<PolicyBatchResult>) => await batch;

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("evaluatePolicyBatch: odd returns fail closed (SI-7)", () => {
  const allowShapedWithThrowingThen = () => ({
    type: "allow",
    get then(): never {
      throw new Error("then getter");
    },
  });

  it("SI-7: an allow-shaped value whose `then` getter throws is an error, on the sync and the async path", async () => {
    const sync = await settle(evaluatePolicyBatch([returning("odd", allowShapedWithThrowingThen())], request, 1_000));
    expect(sync.verdict).toBe("error");
    expect(sync.records).toStrictEqual([{ policy: "odd", type: "error" }]);

    // After a first policy returned a promise, the rest are evaluated on the async path.
    const first = definePolicy("first", () => Promise.resolve(allow()));
    const asyncPath = await settle(evaluatePolicyBatch([first, returning("odd", allowShapedWithThrowingThen())], request, 1_000));
    expect(asyncPath.verdict).toBe("error");
    expect(asyncPath.records).toStrictEqual([
      { policy: "first", type: "allow" },
      { policy: "odd", type: "error" },
    ]);
  });

  it("SI-7: a function carrying a decision's `type` is not a decision", async () => {
    const fn = Object.assign(() => undefined, { type: "allow" });
    const result = await settle(evaluatePolicyBatch([returning("fn", fn)], request, 1_000));
    expect(result.verdict).toBe("error");
  });

  it("SI-7: a decision field whose getter throws makes the whole stance an error, never the stance without the field", async () => {
    const allowWithBadMetadata = {
      type: "allow",
      get metadata(): never {
        throw new Error("metadata getter");
      },
    };
    const denyWithBadMessage = {
      type: "deny",
      get message(): never {
        throw new Error("message getter");
      },
    };
    for (const value of [allowWithBadMetadata, denyWithBadMessage]) {
      const result = await settle(evaluatePolicyBatch([returning("getter", value)], request, 1_000));
      expect(result.verdict).toBe("error");
      expect(result.records).toStrictEqual([{ policy: "getter", type: "error" }]);
    }
  });
});

describe("evaluatePolicyBatch: reading a returned decision", () => {
  /** The value behind a proxy that logs every property read, `then` aside (the promise check reads it). */
  function logged(value: object) {
    const reads: PropertyKey[] = [];
    const proxy = new Proxy(value, {
      get(target, key, receiver) {
        if (key !== "then") reads.push(key);
        return Reflect.get(target, key, receiver);
      },
    });
    return { proxy, reads };
  }

  it("reads the type, then only the fields of that stance (a hide's stray getters are never called)", async () => {
    const extras = { reason: "r", approvalType: "t", expiresInMs: 5, code: "C", message: "m", metadata: { a: 1 } };
    const expected: [string, string[]][] = [
      ["hide", ["type"]],
      ["allow", ["type", "metadata"]],
      ["deny", ["type", "code", "message"]],
      ["require-approval", ["type", "reason", "approvalType", "expiresInMs", "quorum"]],
      ["maybe", ["type"]],
    ];
    for (const [type, fields] of expected) {
      const { proxy, reads } = logged({ type, ...extras });
      const result = await settle(evaluatePolicyBatch([returning("p", proxy)], request, 1_000));
      expect(result.verdict).toBe(type === "maybe" ? "error" : type);
      expect(reads).toEqual(fields);
    }
  });
});

describe("evaluatePolicyBatch: records", () => {
  it("records metadata only for an allow that carries it (core.md §3.1 step 2)", async () => {
    const result = await settle(
      evaluatePolicyBatch(
        [returning("plain", allow()), returning("tagged", allow({ window: "9-17" })), returning("no", { type: "deny", code: "X", metadata: { leak: 1 } })],
        request,
        1_000,
      ),
    );
    expect(result.records).toStrictEqual([
      { policy: "plain", type: "allow" },
      { policy: "tagged", type: "allow", metadata: { window: "9-17" } },
      { policy: "no", type: "deny" },
    ]);
    expect(result.deny).toStrictEqual({ policy: "no", code: "X" });
  });

  it("merges approval demands with only the fields each policy gave", async () => {
    const result = await settle(
      evaluatePolicyBatch(
        [returning("a", requireApproval({ reason: "A" })), returning("b", requireApproval({ reason: "B", approvalType: "manager", expiresInMs: 60_000 }))],
        request,
        1_000,
      ),
    );
    expect(result.verdict).toBe("require-approval");
    expect(result.approvals).toStrictEqual([
      { policy: "a", reason: "A" },
      { policy: "b", reason: "B", approvalType: "manager", expiresInMs: 60_000 },
    ]);
  });
});

describe("evaluatePolicyBatch: the shared deadline (core.md §3.1 step 3)", () => {
  /** A monotonic clock the policies move by hand. */
  function frozenMonotonicClock(start = 1_000) {
    const clock = { t: start };
    vi.spyOn(performance, "now").mockImplementation(() => clock.t);
    return clock;
  }

  it("SI-7: once a synchronous policy spends the budget exactly, the next policy records error and is not called", async () => {
    const clock = frozenMonotonicClock();
    const next = vi.fn(() => allow());
    const spender = definePolicy("spender", () => {
      clock.t += 10;
      return allow();
    });
    const result = await settle(evaluatePolicyBatch([spender, definePolicy("next", next), definePolicy("last", next)], request, 10));
    expect(next).not.toHaveBeenCalled();
    expect(result.verdict).toBe("error");
    expect(result.records).toStrictEqual([
      { policy: "spender", type: "allow" },
      { policy: "next", type: "error" },
    ]);
  });

  it("SI-7: a promise returned with the budget already spent records error, and nothing after it runs", async () => {
    const clock = frozenMonotonicClock();
    const next = vi.fn(() => allow());
    const spender = definePolicy("spender", () => {
      clock.t += 10;
      return Promise.resolve(allow());
    });
    const result = await settle(evaluatePolicyBatch([spender, definePolicy("next", next)], request, 10));
    expect(next).not.toHaveBeenCalled();
    expect(result.verdict).toBe("error");
    expect(result.records).toStrictEqual([{ policy: "spender", type: "error" }]);
  });

  it("SI-7: a promise still pending when its timer finds the budget spent exactly records error, even if it settles next", async () => {
    const clock = frozenMonotonicClock();
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    let release: (value: unknown) => void = () => {};
    const slow = definePolicy("slow", () => new Promise((resolve) => (release = resolve)) as never);
    const batch = evaluatePolicyBatch([slow], request, 10);
    clock.t += 10;
    await vi.advanceTimersByTimeAsync(10);
    release(allow());
    const result = await settle(batch);
    expect(result.verdict).toBe("error");
    expect(result.records).toStrictEqual([{ policy: "slow", type: "error" }]);
  });

  it("races the deadline with timers that have no unref, as outside Node (core.md §16)", async () => {
    const realSetTimeout = globalThis.setTimeout;
    // Browsers and workers hand back a numeric id; Node's clearTimeout accepts the id of a timer turned into a number.
    vi.stubGlobal("setTimeout", (fn: () => void, ms?: number) => Number(realSetTimeout(fn, ms)));
    const settled = await settle(evaluatePolicyBatch([definePolicy("later", () => Promise.resolve(allow()))], request, 1_000));
    expect(settled.verdict).toBe("allow");
    const stuck = await settle(evaluatePolicyBatch([definePolicy("never", () => new Promise(() => {}) as never)], request, 5));
    expect(stuck.records).toStrictEqual([{ policy: "never", type: "error" }]);
  });

  it("leaves no deadline timer behind once a policy settles, resolved, rejected or with a throwing then", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const throwingThenable = {
      then(): never {
        throw new Error("then");
      },
    };
    const cases: [AgentPolicy, PolicyBatchResult["verdict"]][] = [
      [definePolicy("resolves", () => Promise.resolve(allow())), "allow"],
      [definePolicy("rejects", () => Promise.reject(new Error("no"))), "error"],
      [definePolicy("thenable", () => throwingThenable as never), "error"],
    ];
    for (const [policy, verdict] of cases) {
      const result = await settle(evaluatePolicyBatch([policy], request, 5_000));
      expect(result.verdict).toBe(verdict);
      expect(vi.getTimerCount()).toBe(0);
    }
  });
});
