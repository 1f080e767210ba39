// SI-6 / SI-5: what the handler receives is exactly what policies, approvers and the hash saw (issue 22, findings 1-2).
import { allow, createInMemoryApprovalCoordinator, definePolicy, deny, type ApprovalRequest } from "@orpc-agent/core";
import { hashCanonicalInputAsync as hashCanonicalInput } from "../../packages/core/src/approvals/hash.js";
import { describe, expect, it } from "vitest";
import { captureStartupWarnings } from "./support/startup-warnings.js";
import { z } from "zod";
import { approvalOf, base, build, dana, errorOf, meta, mo } from "./support/runtime.js";

// The startup warnings these tests provoke on purpose (docs/architecture/spec/core.md#core-5), captured and asserted.
captureStartupWarnings(["W2", "W3", "W4"]);

function recorder<S extends z.ZodType>(schema: S, agent = meta({ approval: { required: true } })) {
  const seen: unknown[] = [];
  const procedure = base
    .meta({ agent })
    .input(schema)
    .handler(({ input }) => {
      seen.push(input);
      return "done";
    });
  return { procedure, seen };
}

describe("fresh invocations execute the validated value (SI-6)", () => {
  it("SI-6: a caller mutating its raw input while an inline approval is pending does not change what executes", async () => {
    const cap = recorder(z.object({ amount: z.number() }));
    const raw = { amount: 10 };
    let approverSaw: unknown;
    const { runtime } = build({
      defs: { pay: cap.procedure },
      approvals: {
        handler: async (req) => {
          approverSaw = structuredClone(req.input);
          raw.amount = 99;
          return { status: "approved", approver: mo };
        },
      },
    });
    const result = await runtime.invoke("pay", raw, { actor: dana, context: {} });
    expect(result.status).toBe("completed");
    expect(approverSaw).toEqual({ amount: 10 });
    expect(cap.seen).toEqual([{ amount: 10 }]);
  });

  it("SI-6: a getter read twice cannot hand the handler a value the policy never saw", async () => {
    const cap = recorder(z.object({ amount: z.number() }), meta());
    let reads = 0;
    const raw = {
      get amount() {
        return ++reads === 1 ? 50 : 50_000;
      },
    };
    const limit = definePolicy("limit", (req) => ((req.input as { amount: number }).amount > 100 ? deny("LIMIT", "Too much.") : allow()));
    const { runtime } = build({ defs: { pay: cap.procedure }, policies: [limit] });
    const result = await runtime.invoke("pay", raw, { actor: dana, context: {} });
    expect(result.status).toBe("completed");
    expect(cap.seen).toEqual([{ amount: 50 }]);
  });

  it("SI-6: an own toJSON cannot make the approver and the hash see one amount and the handler another", async () => {
    const seen: unknown[] = [];
    const procedure = base
      .meta({ agent: meta({ approval: { required: true } }) })
      .input(z.looseObject({ amount: z.number() }))
      .handler(({ input }) => {
        seen.push((input as { amount: number }).amount);
        return "done";
      });
    let hashed: string | undefined;
    const { runtime } = build({
      defs: { pay: procedure },
      approvals: {
        handler: async (req) => {
          hashed = req.inputHash;
          return { status: "approved", approver: mo };
        },
      },
    });
    const raw = { amount: 1_000_000, toJSON: () => ({ amount: 1 }) };
    const result = await runtime.invoke("pay", raw, { actor: dana, context: {} });
    expect(hashed).toBe(await hashCanonicalInput({ amount: 1 }));
    // Either the handler reads what the hash binds, or the call fails closed before the handler runs.
    if (result.status === "completed") expect(seen).toEqual([1]);
    else expect(seen).toEqual([]);
  });

  it("SI-6: a caller mutating a Date inside its input while an inline approval is pending does not change what executes", async () => {
    // Without a schema (or with z.unknown()), the caller's own objects reach the validated value by reference.
    const cap = { seen: [] as unknown[] };
    const procedure = base.meta({ agent: meta({ approval: { required: true } }) }).handler(({ input }) => (cap.seen.push(input), "done"));
    const raw = { when: new Date("2027-01-01T00:00:00.000Z") };
    let approverHash: string | undefined;
    const { runtime } = build({
      defs: { schedule: procedure },
      approvals: {
        handler: async (req) => {
          approverHash = req.inputHash;
          raw.when.setUTCFullYear(2099);
          return { status: "approved", approver: mo };
        },
      },
    });
    expect((await runtime.invoke("schedule", raw, { actor: dana, context: {} })).status).toBe("completed");
    const executed = cap.seen[0] as { when: Date };
    expect(executed.when.toISOString()).toBe("2027-01-01T00:00:00.000Z");
    expect(await hashCanonicalInput(executed)).toBe(approverHash);
  });

  it("SI-6: a non-deterministic default is drawn once; the handler gets the value the approver saw", async () => {
    let n = 0;
    const cap = recorder(z.object({ seat: z.string().default(() => `seat-${++n}`) }));
    let approverSaw: unknown;
    const { runtime } = build({
      defs: { book: cap.procedure },
      approvals: {
        handler: async (req) => {
          approverSaw = structuredClone(req.input);
          return { status: "approved", approver: mo };
        },
      },
    });
    const result = await runtime.invoke("book", {}, { actor: dana, context: {} });
    expect(result.status).toBe("completed");
    expect(cap.seen).toEqual([approverSaw]);
  });

  it("SI-6: a transform runs once on a fresh invocation: the handler gets the value the policy saw", async () => {
    const cap = recorder(z.object({ amount: z.number().transform((d) => d * 100) }), meta());
    const policySaw: unknown[] = [];
    const look = definePolicy("look", (req) => {
      policySaw.push(req.input);
      return allow();
    });
    const { runtime } = build({ defs: { pay: cap.procedure }, policies: [look] });
    await runtime.invoke("pay", { amount: 5 }, { actor: dana, context: {} });
    expect(policySaw).toEqual([{ amount: 500 }]);
    expect(cap.seen).toEqual([{ amount: 500 }]);
  });

  it("SI-6: on the plain path (no policy, approval or sink) a transform also runs exactly once", async () => {
    const cap = recorder(z.object({ amount: z.number().transform((d) => d * 100) }), meta());
    const { runtime } = build({ defs: { pay: cap.procedure }, audit: [] });
    await runtime.invoke("pay", { amount: 5 }, { actor: dana, context: {} });
    expect(cap.seen).toEqual([{ amount: 500 }]);
  });
});

describe("resume executes exactly the approved value (SI-5, SI-6)", () => {
  it("SI-5: a transform applies once on resume: the handler gets exactly the approved value, never 50 000", async () => {
    const cap = recorder(z.object({ amount: z.number().transform((d) => d * 100) }));
    const coordinator = createInMemoryApprovalCoordinator();
    const { runtime } = build({ defs: { pay: cap.procedure }, approvals: { coordinator } });
    const approval = approvalOf(await runtime.invoke("pay", { amount: 5 }, { actor: dana, context: {} }));
    expect(approval.input).toEqual({ amount: 500 });
    await coordinator.decide(approval.id, { status: "approved", approver: mo });
    const result = await runtime.resume(approval.id, { context: {} });
    expect(result.status).toBe("completed");
    expect(cap.seen).toEqual([{ amount: 500 }]);
  });

  it("SI-5: a string prefix transform applies once on resume", async () => {
    const cap = recorder(z.object({ account: z.string().transform((s) => "acct:" + s) }));
    const coordinator = createInMemoryApprovalCoordinator();
    const { runtime } = build({ defs: { pay: cap.procedure }, approvals: { coordinator } });
    const approval = approvalOf(await runtime.invoke("pay", { account: "42" }, { actor: dana, context: {} }));
    await coordinator.decide(approval.id, { status: "approved", approver: mo });
    const result = await runtime.resume(approval.id, { context: {} });
    expect(result.status).toBe("completed");
    expect(cap.seen).toEqual([{ account: "acct:42" }]);
  });

  it("SI-5: a record without its submitted input (a custom coordinator) and a non-idempotent transform fails closed, unconsumed", async () => {
    const cap = recorder(z.object({ amount: z.number().transform((d) => d * 100) }));
    const inner = createInMemoryApprovalCoordinator();
    // A coordinator that drops the field it does not know, as an older custom store would.
    const coordinator = { ...inner, create: ({ submittedInput: _dropped, ...request }: Parameters<typeof inner.create>[0]) => inner.create(request) };
    const { runtime } = build({ defs: { pay: cap.procedure }, approvals: { coordinator } });
    const approval = approvalOf(await runtime.invoke("pay", { amount: 5 }, { actor: dana, context: {} }));
    await inner.decide(approval.id, { status: "approved", approver: mo });
    const result = await runtime.resume(approval.id, { context: {} });
    expect(errorOf(result).code).toBe("APPROVAL_INPUT_MISMATCH");
    expect(cap.seen).toEqual([]);
    expect((await inner.get(approval.id))!.status).toBe("approved");
  });

  it("SI-5: a rewritten submitted input cannot change what executes: it must map to the approved hash", async () => {
    const cap = recorder(z.object({ amount: z.number().transform((d) => d * 100) }));
    const inner = createInMemoryApprovalCoordinator();
    const coordinator = {
      ...inner,
      get: async (id: string) => {
        const record = await inner.get(id);
        return record === null ? null : { ...record, submittedInput: { amount: 50_000 } };
      },
    };
    const { runtime } = build({ defs: { pay: cap.procedure }, approvals: { coordinator } });
    const approval = approvalOf(await runtime.invoke("pay", { amount: 5 }, { actor: dana, context: {} }));
    await inner.decide(approval.id, { status: "approved", approver: mo });
    const result = await runtime.resume(approval.id, { context: {} });
    expect(errorOf(result).code).toBe("APPROVAL_INPUT_MISMATCH");
    expect(cap.seen).toEqual([]);
    expect((await inner.get(approval.id))!.status).toBe("approved");
  });

  it("SI-6: a non-deterministic default is not drawn again on resume: the approved value runs", async () => {
    let seat = 0;
    const cap = recorder(z.object({ seat: z.string().default(() => `seat-${++seat}`) }));
    const coordinator = createInMemoryApprovalCoordinator();
    const { runtime } = build({ defs: { book: cap.procedure }, approvals: { coordinator } });
    const approval = approvalOf(await runtime.invoke("book", {}, { actor: dana, context: {} }));
    const drawn = seat;
    await coordinator.decide(approval.id, { status: "approved", approver: mo });
    const result = await runtime.resume(approval.id, { context: {} });
    expect(result.status).toBe("completed");
    // Resume re-validates the submitted `{}` (drawing another seat), sees another hash, and runs the approved value.
    expect(seat).toBeGreaterThan(drawn);
    expect(cap.seen).toEqual([approval.input]);
  });

  it("SI-6: R10 policies and the handler see the approved value through defaults, coercions and pipes", async () => {
    const schema = z.object({
      amount: z.coerce.number(),
      note: z.string().trim().default("none"),
      code: z.string().pipe(z.string().toLowerCase()),
    });
    const cap = recorder(schema);
    const policySaw: unknown[] = [];
    const look = definePolicy("look", (req) => {
      policySaw.push(structuredClone(req.input));
      return allow();
    });
    const coordinator = createInMemoryApprovalCoordinator();
    const { runtime } = build({ defs: { pay: cap.procedure }, approvals: { coordinator }, policies: [look] });
    const approval = approvalOf(await runtime.invoke("pay", { amount: "7", code: "ABC" }, { actor: dana, context: {} }));
    expect(approval.input).toEqual({ amount: 7, note: "none", code: "abc" });
    await coordinator.decide(approval.id, { status: "approved", approver: mo });
    const result = await runtime.resume(approval.id, { context: {} });
    expect(result.status).toBe("completed");
    expect(cap.seen).toEqual([approval.input]);
    expect(policySaw).toEqual([approval.input, approval.input]);
    expect(await hashCanonicalInput(cap.seen[0])).toBe(approval.inputHash);
  });

  it("SI-5: a schema change since the request that would alter the approved value fails closed and leaves the approval unconsumed", async () => {
    const coordinator = createInMemoryApprovalCoordinator();
    const before = recorder(z.object({ amount: z.number() }));
    const first = build({ defs: { pay: before.procedure }, approvals: { coordinator } });
    const approval = approvalOf(await first.runtime.invoke("pay", { amount: 5 }, { actor: dana, context: {} }));
    await coordinator.decide(approval.id, { status: "approved", approver: mo });

    // A deploy adds a defaulted field: the approved value would change.
    const after = recorder(z.object({ amount: z.number(), currency: z.string().default("EUR") }));
    const second = build({ defs: { pay: after.procedure }, approvals: { coordinator } });
    const result = await second.runtime.resume(approval.id, { context: {} });
    expect(errorOf(result).code).toBe("APPROVAL_INPUT_MISMATCH");
    expect(after.seen).toEqual([]);
    expect((await coordinator.get(approval.id))!.status).toBe("approved");
  });
});

describe("proxies (SI-6)", () => {
  it.each([1, 2, 3, 4, 5])("SI-6: a Proxy that claims to be a class instance for its first %i prototype reads and a plain object later never executes unbound", async (lies) => {
    const seen: unknown[] = [];
    const procedure = base.meta({ agent: meta({ approval: { required: true } }) }).handler(({ input }) => {
      seen.push((input as { amount: number }).amount);
      return "done";
    });
    let protoReads = 0;
    let amountReads = 0;
    const liar = new Proxy(
      { amount: 1 },
      {
        getPrototypeOf: () => (++protoReads <= lies ? Map.prototype : Object.prototype),
        get: (target, key) => (key === "amount" ? (++amountReads === 1 ? 1 : 1_000_000) : Reflect.get(target, key)),
      },
    );
    let hashed: string | undefined;
    const { runtime } = build({
      defs: { pay: procedure },
      approvals: { handler: async (req) => ((hashed = req.inputHash), { status: "approved", approver: mo }) },
    });
    const result = await runtime.invoke("pay", liar, { actor: dana, context: {} });
    if (result.status === "completed") {
      // Whatever the handler read must be what the hash bound.
      expect(await hashCanonicalInput({ amount: seen[0] })).toBe(hashed);
    } else {
      expect(seen).toEqual([]);
    }
  });
});

describe("found by attacking the fix (SI-5, SI-6)", () => {
  it("SI-6: a toJSON returned by a toJSON is not applied: approver, hash and handler see one amount", async () => {
    const seen: unknown[] = [];
    const procedure = base
      .meta({ agent: meta({ approval: { required: true } }) })
      .input(z.looseObject({ amount: z.number() }))
      .handler(({ input }) => {
        seen.push(input.amount);
        return "done";
      });
    let approved: ApprovalRequest | undefined;
    const { runtime } = build({
      defs: { pay: procedure },
      approvals: { handler: async (request) => ((approved = request), { status: "approved", approver: mo }) },
    });
    const raw = { amount: 1e6, toJSON: () => ({ amount: 1e6, toJSON: () => ({ amount: 1 }) }) };
    const result = await runtime.invoke("pay", raw, { actor: dana, context: {} });
    expect(result.status).toBe("completed");
    expect(JSON.parse(JSON.stringify(approved!.input))).toEqual({ amount: seen[0] });
    expect(approved!.inputHash).toBe(await hashCanonicalInput({ amount: seen[0] }));
  });

  it("SI-5: a record whose inputHash getter changes between reads is read once: the rewritten value never runs", async () => {
    const cap = recorder(z.object({ a: z.number() }));
    const inner = createInMemoryApprovalCoordinator();
    const { runtime: first } = build({ defs: { pay: cap.procedure }, approvals: { coordinator: inner } });
    const approval = approvalOf(await first.invoke("pay", { a: 1 }, { actor: dana, context: {} }));
    await inner.decide(approval.id, { status: "approved", approver: mo });
    const forgedHash = await hashCanonicalInput({ a: 1000 });
    const coordinator = {
      ...inner,
      get: async (id: string) => {
        const record = (await inner.get(id))!;
        let reads = 0;
        const { inputHash: _h, ...rest } = record;
        return Object.defineProperties({ ...rest, input: { a: 1000 }, submittedInput: { a: 1000 } }, {
          inputHash: { enumerable: true, get: () => (++reads <= 1 ? approval.inputHash : forgedHash) },
        }) as typeof record;
      },
    };
    const { runtime } = build({ defs: { pay: cap.procedure }, approvals: { coordinator } });
    const result = await runtime.resume(approval.id, { context: {} });
    expect(errorOf(result).code).toBe("APPROVAL_INPUT_MISMATCH");
    expect(cap.seen).toEqual([]);
    expect((await inner.get(approval.id))!.status).toBe("approved");
  });
});
