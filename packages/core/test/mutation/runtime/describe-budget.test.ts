// Raised from the mutation run: the discovery budget (docs/architecture/spec/core.md#core-8 step 3) is checked around synchronous work too,
// and the discovered digest tells different catalogues apart (docs/architecture/spec/core.md#core-11).
import { afterEach, describe, expect, it, vi } from "vitest";
import { allow, CapabilityError, definePolicy, type AgentAuditEvent, type PolicyDecision } from "../../../src/index.js";
import { build, counted, dana } from "../../runtime/pipeline-harness.js";

afterEach(() => {
  vi.restoreAllMocks();
});

/** A monotonic clock that only policies move. */
function frozenMonotonicClock(start = 5_000) {
  const clock = { t: start };
  vi.spyOn(performance, "now").mockImplementation(() => clock.t);
  return clock;
}

const rejection = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => error);

/** A discovery policy that records every capability it sees and spends 11 ms of `clock` on `spender`. */
function spendingPolicy(clock: { t: number }, spender: string, answer: (id: string) => PolicyDecision | Promise<PolicyDecision>) {
  const seen: string[] = [];
  const policy = definePolicy("spend", (req) => {
    seen.push(req.capability.id);
    if (req.capability.id === spender) clock.t += 11;
    return answer(req.capability.id);
  }, { phases: ["discovery"] });
  return { policy, seen };
}

describe("describe: the discovery budget", () => {
  it("rejects TIMEOUT when a synchronous discovery policy spends the budget, and evaluates no later candidate", async () => {
    const { policy: spend, seen } = spendingPolicy(frozenMonotonicClock(), "a", () => allow());
    const { runtime, ofType } = build({ defs: { a: counted().procedure, b: counted().procedure }, policies: [spend], defaults: { discoveryBudgetMs: 10 } });
    const error = await rejection(runtime.describe("aiSdk", { actor: dana, context: {} }));
    expect(error).toBeInstanceOf(CapabilityError);
    expect(error).toMatchObject({ code: "TIMEOUT", stage: "discovery" });
    expect(seen).toEqual(["a"]);
    expect(ofType("capabilities.discovered")).toEqual([]);
  });

  it("checks the budget before each batch: a policy that spent it before returning its promise stops the next candidate", async () => {
    const { policy: spend, seen } = spendingPolicy(frozenMonotonicClock(), "a", () => Promise.resolve(allow()));
    const { runtime } = build({ defs: { a: counted().procedure, b: counted().procedure }, policies: [spend], defaults: { discoveryBudgetMs: 10 } });
    const error = await rejection(runtime.describe("aiSdk", { actor: dana, context: {} }));
    expect(error).toMatchObject({ code: "TIMEOUT", stage: "discovery" });
    expect(seen).toEqual(["a"]);
  });
});

describe("describe: clock reads (core.md §16)", () => {
  // A clock read costs about as much as a small synchronous policy, so each batch is followed by exactly one,
  // which is also the next batch's "before" check.
  it("reads the monotonic clock once per synchronous batch, plus once at the start and once at the end", async () => {
    const now = vi.spyOn(performance, "now");
    const visible = definePolicy("visible", () => allow(), { phases: ["discovery"] });
    const { runtime } = build({ defs: { a: counted().procedure, b: counted().procedure, c: counted().procedure }, policies: [visible] });
    now.mockClear();
    expect((await runtime.describe("aiSdk", { actor: dana, context: {} })).map((d) => d.id)).toEqual(["a", "b", "c"]);
    expect(now).toHaveBeenCalledTimes(5);
  });

  it("still sees time a batch spent before returning its promise: the next candidate is not evaluated", async () => {
    const { policy: spend, seen } = spendingPolicy(frozenMonotonicClock(), "b", (id) => (id === "a" ? allow() : Promise.resolve(allow())));
    const { runtime } = build({ defs: { a: counted().procedure, b: counted().procedure, c: counted().procedure }, policies: [spend], defaults: { discoveryBudgetMs: 10 } });
    expect(await rejection(runtime.describe("aiSdk", { actor: dana, context: {} }))).toMatchObject({ code: "TIMEOUT", stage: "discovery" });
    expect(seen).toEqual(["a", "b"]);
  });
});

describe("describe: a budget spent to the millisecond", () => {
  // Expiry is strictly past the deadline (docs/architecture/spec/core.md#core-8 step 3): a catalogue finished at deadline + 0 is on time.
  it.each(["synchronous", "asynchronous"])("keeps the catalogue when a %s discovery policy ends exactly at the deadline", async (kind) => {
    const clock = frozenMonotonicClock();
    const spendTenMs = () => {
      clock.t += 10;
      return allow();
    };
    const evaluate = kind === "synchronous" ? spendTenMs : async () => (await Promise.resolve(), spendTenMs());
    const spend = definePolicy("spend", evaluate, { phases: ["discovery"] });
    const { runtime } = build({ defs: { a: counted().procedure }, policies: [spend], defaults: { discoveryBudgetMs: 10 } });
    const catalogue = await runtime.describe("aiSdk", { actor: dana, context: {} });
    expect(catalogue.map((d) => d.id)).toEqual(["a"]);
  });
});

describe("describe: the discovered digest", () => {
  it("differs for catalogues whose ids only concatenate alike ([ab, c] and [a, bc])", async () => {
    const digest = async (ids: string[]) => {
      const { runtime, ofType } = build({ defs: Object.fromEntries(ids.map((id) => [id, counted().procedure])) });
      await runtime.describe("aiSdk", { actor: dana, context: {} });
      return (ofType("capabilities.discovered")[0] as Extract<AgentAuditEvent, { type: "capabilities.discovered" }>).data.digest;
    };
    expect(await digest(["ab", "c"])).not.toBe(await digest(["a", "bc"]));
    expect(await digest(["c", "ab"])).toBe(await digest(["ab", "c"]));
  });
});
