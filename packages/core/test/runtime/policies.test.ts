import { z } from "zod";
import { describe, expect, it } from "vitest";
import { captureStartupWarnings } from "../support/startup-warnings.js";
import { agentMeta, allow, definePolicy, deny, type AgentPolicy, type PolicyDecision, type PolicyRequest } from "../../src/index.js";
import { base, build, counted, dana, deferred, delay, errorOf, meta } from "./pipeline-harness.js";

// The startup warnings these tests provoke on purpose (docs/architecture/spec/core.md#core-5), captured and asserted.
captureStartupWarnings(["W2"]);

const GENERIC = { code: "INTERNAL_ERROR", message: "The operation failed.", retryable: false };

/** An order capability whose schema defaults `currency`: policies and handler must both see the default. */
function defaultingOrder() {
  const seen: unknown[] = [];
  const procedure = base
    .input(z.object({ amount: z.number(), currency: z.string().default("EUR") }))
    .meta(agentMeta(meta({ sideEffect: "none" })))
    .handler(({ input }) => {
      seen.push(input);
      return input;
    });
  return { procedure, seen };
}

describe("invoke: what was validated executes (SI-6)", () => {
  it("SI-6: policies and the handler see the parsed, defaulted value", async () => {
    const order = defaultingOrder();
    const policyInputs: unknown[] = [];
    const look = definePolicy("look", (req) => {
      policyInputs.push(req.input);
      return allow();
    }, { phases: ["invocation", "execution"] });
    const { runtime } = build({ defs: { order: order.procedure }, policies: [look] });

    const result = await runtime.invoke("order", { amount: 5 }, { actor: dana, context: {} });

    expect(result).toMatchObject({ status: "completed", output: { amount: 5, currency: "EUR" } });
    expect(policyInputs).toEqual([{ amount: 5, currency: "EUR" }, { amount: 5, currency: "EUR" }]);
    expect(order.seen).toEqual([{ amount: 5, currency: "EUR" }]);
  });

  it("SI-6: extra fields on a decision change nothing: not the input, the actor, the output nor the record", async () => {
    const order = defaultingOrder();
    const sneaky = definePolicy("sneaky", () => ({
      type: "allow",
      input: { amount: 999_999, currency: "USD" },
      actor: { id: "root", kind: "service" },
      output: "forged",
      exposeToModel: true,
    }) as PolicyDecision);
    const sneakyDeny = definePolicy("sneaky-deny", () => ({ type: "deny", message: "No.", publicMessage: "ignored", retryable: true, exposeToModel: false }) as PolicyDecision, {
      scope: { capabilities: { ids: ["locked"] } },
    });
    const { runtime, ofType } = build({ defs: { order: order.procedure, locked: counted().procedure }, policies: [sneaky, sneakyDeny] });

    const result = await runtime.invoke("order", { amount: 5 }, { actor: dana, context: {} });
    expect(result).toMatchObject({ status: "completed", output: { amount: 5, currency: "EUR" } });
    expect(order.seen).toEqual([{ amount: 5, currency: "EUR" }]);
    expect(ofType("capability.completed")[0]?.actor).toEqual({ id: "dana", kind: "user" });

    const denied = errorOf(await runtime.invoke("locked", undefined, { actor: dana, context: {} }));
    expect(denied).toMatchObject({ code: "POLICY_DENIED", publicMessage: "No.", retryable: false, exposeToModel: true });
    expect(ofType("capability.denied")[0]?.data.policyDecisions).toEqual([
      { policy: "sneaky", type: "allow" },
      { policy: "sneaky-deny", type: "deny" },
    ]);
  });

  it("SI-6: a policy mutating req.input fails POLICY_FAILED, is recorded as error, and the procedure is not called", async () => {
    const order = defaultingOrder();
    const before = definePolicy("before", () => allow());
    const mutate = definePolicy("mutate", (req) => {
      (req.input as { amount: number }).amount = 1_000_000;
      return allow();
    });
    const after = definePolicy("after", () => allow());
    const { runtime, ofType } = build({ defs: { order: order.procedure }, policies: [before, mutate, after] });

    const error = errorOf(await runtime.invoke("order", { amount: 5 }, { actor: dana, context: {} }));

    expect(error.code).toBe("POLICY_FAILED");
    expect(order.seen).toEqual([]);
    const [denied] = ofType("capability.denied");
    expect(denied?.data).toEqual({
      reason: "policy-failed",
      publicCode: "POLICY_FAILED",
      policyDecisions: [
        { policy: "before", type: "allow" },
        { policy: "mutate", type: "error" },
        { policy: "after", type: "allow" },
      ],
    });
    expect(ofType("capability.started")).toEqual([]);
  });

  it("SI-6: nested values are frozen too, so a deep mutation also fails closed", async () => {
    const target = base
      .input(z.object({ lines: z.array(z.object({ sku: z.string() })) }))
      .meta(agentMeta(meta()))
      .handler(({ input }) => input.lines.length);
    const deep = definePolicy("deep", (req) => {
      (req.input as { lines: { sku: string }[] }).lines[0]!.sku = "other";
      return allow();
    });
    const { runtime } = build({ defs: { cart: target }, policies: [deep] });
    expect(errorOf(await runtime.invoke("cart", { lines: [{ sku: "a" }] }, { actor: dana, context: {} })).code).toBe("POLICY_FAILED");
  });

  it("SI-6: without a schema the caller's raw input object is not frozen by the runtime; policies and the handler share a frozen snapshot", async () => {
    const seenByHandler: unknown[] = [];
    const schemaless = base.meta(agentMeta(meta())).handler(({ input }) => {
      seenByHandler.push(input);
      return "ok";
    });
    let policyInputFrozen: boolean | undefined;
    const look = definePolicy("look", (req) => {
      policyInputFrozen = Object.isFrozen(req.input) && Object.isFrozen((req.input as { nested: object }).nested);
      return allow();
    });
    const { runtime } = build({ defs: { free: schemaless }, policies: [look] });
    const raw = { nested: { n: 1 }, list: [1, 2] };

    expect((await runtime.invoke("free", raw, { actor: dana, context: {} })).status).toBe("completed");

    expect(policyInputFrozen).toBe(true);
    expect(Object.isFrozen(raw)).toBe(false);
    expect(Object.isFrozen(raw.nested)).toBe(false);
    expect(Object.isFrozen(raw.list)).toBe(false);
    raw.nested.n = 2; // still the caller's to change, but no longer what executes
    expect(seenByHandler[0]).not.toBe(raw); // amended docs/architecture/spec/core.md#core-6-1: the snapshot the policy saw goes to call
    expect(seenByHandler[0]).toEqual({ nested: { n: 1 }, list: [1, 2] });
  });
});

describe("invoke: policies fail closed (SI-7)", () => {
  const failing: [string, AgentPolicy["evaluate"]][] = [
    ["throwing", () => {
      throw new Error("policy exploded");
    }],
    ["rejecting", () => Promise.reject(new Error("policy rejected"))],
    ["timed-out", () => new Promise<PolicyDecision>(() => {})],
    ["undefined-returning", () => undefined as never],
    ["garbage-returning", () => ({ type: "nope" }) as never],
    ["null-returning", () => null as never],
    ["async-garbage-returning", async () => ({ type: "allow", metadata: "x" }) as never],
  ];

  for (const [label, evaluate] of failing) {
    it(`SI-7: a ${label} policy → POLICY_FAILED, not exposed, recorded as error with reason policy-failed`, async () => {
      const target = counted();
      const { runtime, ofType } = build({
        defs: { op: target.procedure },
        policies: [definePolicy("flaky", evaluate)],
        defaults: { policyTimeoutMs: 20 },
      });
      const error = errorOf(await runtime.invoke("op", undefined, { actor: dana, context: {} }));

      expect(error.code).toBe("POLICY_FAILED");
      expect(error.stage).toBe("policy");
      expect(error.exposeToModel).toBe(false);
      expect(error.publicMessage).toBe("The operation failed.");
      expect(error.toJSON()).toEqual(GENERIC);
      expect(target.calls.count).toBe(0);
      expect(ofType("capability.denied").map((e) => e.data)).toEqual([
        { reason: "policy-failed", publicCode: "POLICY_FAILED", policyDecisions: [{ policy: "flaky", type: "error" }] },
      ]);
    });
  }

  it("SI-7: an error outranks a deny, in either order, and every stance is still recorded", async () => {
    const boom = definePolicy("boom", () => {
      throw new Error("x");
    });
    const no = definePolicy("no", () => deny("NOPE", "Not today."));
    for (const policies of [[no, boom], [boom, no]]) {
      const { runtime, ofType } = build({ defs: { op: counted().procedure }, policies });
      const error = errorOf(await runtime.invoke("op", undefined, { actor: dana, context: {} }));
      expect(error.code).toBe("POLICY_FAILED");
      expect(error.details).toBeUndefined();
      const decisions = ofType("capability.denied")[0]?.data.policyDecisions;
      expect(decisions).toEqual(policies.map((p) => ({ policy: p.name, type: p === boom ? "error" : "deny" })));
    }
  });

  it("SI-7: the deadline is shared by the batch, so two policies taking 60% each fail the second", async () => {
    const policyTimeoutMs = 80;
    const slowAllow = (name: string) => definePolicy(name, async () => {
      await delay(policyTimeoutMs * 0.6);
      return allow();
    });

    // Alone, one such policy fits in the deadline.
    const single = build({ defs: { op: counted().procedure }, policies: [slowAllow("first")], defaults: { policyTimeoutMs } });
    expect((await single.runtime.invoke("op", undefined, { actor: dana, context: {} })).status).toBe("completed");

    const target = counted();
    const pair = build({ defs: { op: target.procedure }, policies: [slowAllow("first"), slowAllow("second")], defaults: { policyTimeoutMs } });
    const error = errorOf(await pair.runtime.invoke("op", undefined, { actor: dana, context: {} }));
    expect(error.code).toBe("POLICY_FAILED");
    expect(target.calls.count).toBe(0);
    expect(pair.ofType("capability.denied")[0]?.data.policyDecisions).toEqual([
      { policy: "first", type: "allow" },
      { policy: "second", type: "error" },
    ]);
  });

  it("SI-7 (§15 item 5): the deadline is per batch: the execution batch gets a fresh one", async () => {
    const policyTimeoutMs = 80;
    const slow = definePolicy("slow", async () => {
      await delay(policyTimeoutMs * 0.6);
      return allow();
    }, { phases: ["invocation", "execution"] });
    const { runtime, ofType } = build({ defs: { op: counted().procedure }, policies: [slow], defaults: { policyTimeoutMs } });
    expect((await runtime.invoke("op", undefined, { actor: dana, context: {} })).status).toBe("completed");
    expect(ofType("capability.denied")).toEqual([]);
  });

  it("SI-7: a failing execution-phase policy (stage 9) fails closed after stage 7 passed; both batches are recorded", async () => {
    const target = counted();
    const gate = definePolicy("gate", () => allow({ checked: true }));
    const late = definePolicy("late", () => Promise.reject(new Error("down")), { phases: ["execution"] });
    const { runtime, ofType } = build({ defs: { op: target.procedure }, policies: [gate, late] });

    const error = errorOf(await runtime.invoke("op", undefined, { actor: dana, context: {} }));

    expect(error.code).toBe("POLICY_FAILED");
    expect(error.toJSON()).toEqual(GENERIC);
    expect(target.calls.count).toBe(0);
    expect(ofType("capability.started")).toEqual([]);
    expect(ofType("capability.denied").map((e) => e.data)).toEqual([
      {
        reason: "policy-failed",
        publicCode: "POLICY_FAILED",
        policyDecisions: [
          { policy: "gate", type: "allow", metadata: { checked: true } },
          { policy: "late", type: "error" },
        ],
      },
    ]);
  });

  it("SI-7 (§15 item 5): scoped-out and phase-excluded policies are not called and leave no record", async () => {
    const calls: string[] = [];
    const spy = (name: string, options: Parameters<typeof definePolicy>[2]) =>
      definePolicy(name, (req: PolicyRequest) => {
        calls.push(`${name}@${req.phase}`);
        return allow();
      }, options);
    const policies = [
      spy("other-id", { scope: { capabilities: { ids: ["other"] } } }),
      spy("write-only", { scope: { capabilities: { sideEffects: ["write"] } } }),
      spy("mcp-only", { scope: { surfaces: ["mcp"] } }),
      spy("empty-tags", { scope: { capabilities: { tags: [] } } }),
      spy("discovery-only", { phases: ["discovery"] }),
      spy("applies", { scope: { capabilities: { ids: ["op"] }, surfaces: ["direct"] } }),
    ];
    const { runtime, ofType } = build({
      defs: { op: counted().procedure, other: counted().procedure },
      policies: [...policies, definePolicy("deny-op", () => deny(), { scope: { capabilities: { ids: ["op"] } } })],
    });

    errorOf(await runtime.invoke("op", undefined, { actor: dana, context: {} }));

    expect(calls).toEqual(["applies@invocation"]);
    expect(ofType("capability.denied")[0]?.data.policyDecisions).toEqual([
      { policy: "applies", type: "allow" },
      { policy: "deny-op", type: "deny" },
    ]);
  });

  it("SI-7 (§15 item 2): a policy scope ANDs its fields: tag match alone is not enough", async () => {
    const evaluated: string[] = [];
    const writesTaggedBilling = definePolicy("writes-tagged-billing", (req) => {
      evaluated.push(req.capability.id);
      return deny();
    }, { scope: { capabilities: { tags: ["billing"], sideEffects: ["write"] } } });
    const { runtime } = build({
      defs: {
        readBilling: counted({ tags: ["billing"], sideEffect: "read" }).procedure,
        writeBilling: counted({ tags: ["billing"], sideEffect: "write" }).procedure,
        writeUntagged: counted({ sideEffect: "write" }).procedure,
      },
      policies: [writesTaggedBilling],
    });
    const statuses = [];
    for (const id of ["readBilling", "writeBilling", "writeUntagged"]) {
      statuses.push((await runtime.invoke(id, undefined, { actor: dana, context: {} })).status);
    }
    expect(statuses).toEqual(["completed", "failed", "completed"]);
    expect(evaluated).toEqual(["writeBilling"]);
  });

  it("SI-7: a policy that resolves after its deadline cannot revive the execution", async () => {
    const late = deferred<PolicyDecision>();
    const target = counted();
    const { runtime } = build({ defs: { op: target.procedure }, policies: [definePolicy("late", () => late.promise)], defaults: { policyTimeoutMs: 15 } });
    const result = await runtime.invoke("op", undefined, { actor: dana, context: {} });
    late.resolve(allow());
    await delay(5);
    expect(errorOf(result).code).toBe("POLICY_FAILED");
    expect(target.calls.count).toBe(0);
  });
});
