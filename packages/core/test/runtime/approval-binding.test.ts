import { os } from "@orpc/server";
import { z } from "zod";
import { describe, expect, it, vi } from "vitest";
import { captureStartupWarnings } from "../support/startup-warnings.js";
import {
  agentMeta,
  agentProcedure,
  createAgentRuntime,
  createCapabilityRegistry,
  createInMemoryApprovalCoordinator,
  defineGovernance,
  type AgentAuditEvent,
  type ApprovalCoordinator,
  type ApprovalRecord,
  type CapabilityError,
  type CapabilityRegistry,
  type ExecutionResult,
} from "../../src/index.js";

// The startup warnings these tests provoke on purpose (docs/architecture/spec/core.md#core-5), captured and asserted.
captureStartupWarnings(["W4"]);

// SI-5 (docs/architecture/spec/core.md#core-14): an approval binds the exact operation. docs/architecture/spec/core.md#core-r5, R8, R11; docs/architecture/spec/core.md#core-10 coordinator contract; docs/architecture/spec/core.md#core-15-item-10.

const REQUESTER = { id: "user_dana", kind: "user" } as const;
const MANAGER = { id: "user_priya", kind: "user" } as const;

const refundMeta = {
  description: "Refund an order.",
  expose: { aiSdk: true },
  sideEffect: "write",
  risk: "high",
  approval: { required: true },
} as const;

function refundRegistry(inputSchema: z.ZodType, calls: unknown[]): CapabilityRegistry {
  return createCapabilityRegistry({
    orders: {
      refund: agentProcedure(os)
        .input(inputSchema)
        .meta(agentMeta(refundMeta))
        .handler(({ input }) => {
          calls.push(input);
          return { ok: true };
        }),
    },
  });
}

const currentSchema = z.object({ id: z.string(), amount: z.number(), currency: z.string().default("EUR") });

/** A coordinator whose `get` can be made to return a doctored copy of the stored record. */
function tamperableCoordinator() {
  const inner = createInMemoryApprovalCoordinator();
  let doctor: ((record: ApprovalRecord) => ApprovalRecord) | undefined;
  const coordinator: ApprovalCoordinator = {
    ...inner,
    get: async (id) => {
      const record = await inner.get(id);
      return record && doctor ? doctor(record) : record;
    },
    markConsumed: vi.fn(inner.markConsumed),
  };
  return { coordinator, inner, tamper: (fn: typeof doctor) => void (doctor = fn) };
}

function setup(init: { coordinator?: ApprovalCoordinator; registry?: CapabilityRegistry; calls?: unknown[] } = {}) {
  const calls = init.calls ?? [];
  const events: AgentAuditEvent[] = [];
  const coordinator = init.coordinator ?? createInMemoryApprovalCoordinator();
  const registry = init.registry ?? refundRegistry(currentSchema, calls);
  const runtime = createAgentRuntime({ governance: defineGovernance({ registry }), approvals: { coordinator }, audit: (e) => void events.push(e) });
  return { runtime, calls, events, coordinator };
}

async function approvedRefund(runtime: ReturnType<typeof setup>["runtime"], input: unknown = { id: "o1", amount: 120 }): Promise<ApprovalRecord> {
  const result = await runtime.invoke("orders.refund", input, { actor: REQUESTER, context: {}, surface: "aiSdk" });
  if (result.status !== "approval-required") throw new Error(`expected approval-required, got ${result.status}`);
  await runtime.approvals.decide(result.approval.id, { status: "approved", approver: MANAGER });
  return result.approval;
}

function failure(result: ExecutionResult): CapabilityError {
  if (result.status !== "failed") throw new Error(`expected failed, got ${result.status}`);
  return result.error;
}

describe("SI-5: approval binds the exact operation", () => {
  it("SI-5: a tampered stored input fails with APPROVAL_INPUT_MISMATCH, serialized generically, and leaves the record unconsumed", async () => {
    const { coordinator, inner, tamper } = tamperableCoordinator();
    const { runtime, calls, events } = setup({ coordinator });
    const record = await approvedRefund(runtime);

    tamper((r) => ({ ...r, input: { ...(r.input as object), amount: 99_999 } }));
    const result = await runtime.resume(record.id, { context: {} });
    const error = failure(result);
    expect(error).toMatchObject({ code: "APPROVAL_INPUT_MISMATCH", stage: "approval", exposeToModel: false });
    expect(error.toJSON()).toStrictEqual({ code: "INTERNAL_ERROR", message: "The operation failed.", retryable: false });
    expect(calls).toEqual([]);
    expect(coordinator.markConsumed).not.toHaveBeenCalled();
    expect((await inner.get(record.id))!.status).toBe("approved");
    expect(events.at(-1)).toMatchObject({ type: "capability.failed", executionId: result.executionId, data: { code: "APPROVAL_INPUT_MISMATCH" } });
    expect(JSON.stringify(events)).not.toContain("99999");

    // Once the store is honest again, the untouched approval still works.
    tamper(undefined);
    expect((await runtime.resume(record.id, { context: {} })).status).toBe("completed");
    expect(calls).toEqual([{ id: "o1", amount: 120, currency: "EUR" }]);
  });

  it("SI-5: a stored input whose keys come back in another order still matches its hash", async () => {
    const { coordinator, tamper } = tamperableCoordinator();
    const { runtime, calls } = setup({ coordinator });
    const record = await approvedRefund(runtime);
    tamper((r) => {
      const { id, amount, currency } = r.input as { id: string; amount: number; currency: string };
      return { ...r, input: { currency, amount, id } };
    });
    expect((await runtime.resume(record.id, { context: {} })).status).toBe("completed");
    expect(calls).toEqual([{ id: "o1", amount: 120, currency: "EUR" }]);
  });

  it("SI-5: the stored (validated) input executes, whatever happened to the caller's object since", async () => {
    const { runtime, calls } = setup();
    const input = { id: "o1", amount: 120 };
    const record = await approvedRefund(runtime, input);
    input.amount = 5_000;
    input.id = "o-other";

    const result = await runtime.resume(record.id, { context: {} });
    expect(result.status).toBe("completed");
    // What the manager saw (stage 5's parsed value, default applied) is what the handler gets.
    expect(record.input).toStrictEqual({ id: "o1", amount: 120, currency: "EUR" });
    expect(calls).toStrictEqual([record.input]);
  });

  it("SI-5: a second resume of a consumed approval fails with APPROVAL_CONSUMED", async () => {
    const { runtime, calls, coordinator } = setup();
    const record = await approvedRefund(runtime);
    const first = await runtime.resume(record.id, { context: {} });
    expect(first.status).toBe("completed");
    expect((await coordinator.get(record.id))!).toMatchObject({ status: "consumed", consumedByExecutionId: first.executionId });

    const second = await runtime.resume(record.id, { context: {} });
    expect(failure(second)).toMatchObject({ code: "APPROVAL_CONSUMED", stage: "approval", exposeToModel: true, retryable: false });
    expect(calls).toHaveLength(1);
  });

  it("SI-5: of 50 concurrent resumes of one approved record exactly one completes; the rest get APPROVAL_CONSUMED", async () => {
    const { coordinator } = tamperableCoordinator();
    const { runtime, calls } = setup({ coordinator });
    const record = await approvedRefund(runtime);
    const results = await Promise.all(Array.from({ length: 50 }, () => runtime.resume(record.id, { context: {} })));

    expect(results.filter((r) => r.status === "completed")).toHaveLength(1);
    const failed = results.filter((r) => r.status !== "completed");
    expect(failed).toHaveLength(49);
    expect(new Set(failed.map((r) => failure(r).code))).toEqual(new Set(["APPROVAL_CONSUMED"]));
    expect(calls).toHaveLength(1);
    expect(new Set(results.map((r) => r.executionId)).size).toBe(50);
    // All 50 passed R1..R10 together and raced at R11: the coordinator's atomic markConsumed picked the one.
    expect(coordinator.markConsumed).toHaveBeenCalledTimes(50);
  });

  it("SI-5: schema drift fails R8 with INPUT_INVALID and leaves the record unconsumed", async () => {
    const coordinator = createInMemoryApprovalCoordinator();
    const calls: unknown[] = [];
    const before = setup({ coordinator, calls });
    const record = await approvedRefund(before.runtime);

    // A deploy tightened the schema: the approved amount no longer passes.
    const drifted = setup({ coordinator, registry: refundRegistry(z.object({ id: z.string(), amount: z.number().max(100), currency: z.string() }), calls) });
    const result = await drifted.runtime.resume(record.id, { context: {} });
    const error = failure(result);
    expect(error).toMatchObject({ code: "INPUT_INVALID", stage: "input-validation" });
    expect(error.details).toMatchObject({ issues: [{ path: ["amount"] }] });
    expect(drifted.events.at(-1)).toMatchObject({ type: "capability.failed", data: { code: "INPUT_INVALID", attempts: 0 } });
    expect(calls).toEqual([]);
    expect((await coordinator.get(record.id))!.status).toBe("approved");

    // Unconsumed: a runtime whose schema still accepts it can use the approval.
    expect((await before.runtime.resume(record.id, { context: {} })).status).toBe("completed");
  });

  it("SI-5: a function-valued property in gated input fails with APPROVAL_UNSERIALIZABLE_INPUT and stores nothing", async () => {
    const calls: unknown[] = [];
    const inner = createInMemoryApprovalCoordinator();
    const coordinator = { ...inner, create: vi.fn(inner.create) };
    const registry = createCapabilityRegistry({
      notes: {
        // No input schema: the raw value is what gets gated.
        attach: agentProcedure(os)
          .meta(agentMeta({ description: "Attach a note.", expose: { direct: true }, sideEffect: "write", risk: "medium", approval: { required: true } }))
          .handler(({ input }) => void calls.push(input)),
      },
    });
    const runtime = createAgentRuntime({ governance: defineGovernance({ registry }), approvals: { coordinator } });
    const result = await runtime.invoke("notes.attach", { text: "hi", onSave: () => "side effect" }, { actor: REQUESTER, context: {} });
    const error = failure(result);
    expect(error).toMatchObject({ code: "APPROVAL_UNSERIALIZABLE_INPUT", stage: "approval", exposeToModel: false });
    expect(error.toJSON()).toStrictEqual({ code: "INTERNAL_ERROR", message: "The operation failed.", retryable: false });
    expect(coordinator.create).not.toHaveBeenCalled();
    expect(await inner.list()).toEqual([]);
    expect(calls).toEqual([]);
  });
});

describe("coordinator input round-trip (core.md §15 item 10)", () => {
  const at = new Date("2030-05-06T07:08:09.010Z");

  function scheduleRegistry(calls: unknown[], schema?: z.ZodType) {
    const base = agentProcedure(os);
    const meta = { description: "Schedule a payout.", expose: { direct: true }, sideEffect: "write", risk: "high", approval: { required: true } } as const;
    const procedure = schema
      ? base.input(schema).meta(agentMeta(meta)).handler(({ input }) => void calls.push(input))
      : base.meta(agentMeta(meta)).handler(({ input }) => void calls.push(input));
    return createCapabilityRegistry({ payouts: { schedule: procedure } });
  }

  async function approveSchedule(registry: CapabilityRegistry) {
    const coordinator = createInMemoryApprovalCoordinator();
    const runtime = createAgentRuntime({ governance: defineGovernance({ registry }), approvals: { coordinator } });
    const pending = await runtime.invoke("payouts.schedule", { at, amount: 10 }, { actor: REQUESTER, context: {} });
    if (pending.status !== "approval-required") throw new Error(`expected approval-required, got ${pending.status}`);
    await runtime.approvals.decide(pending.approval.id, { status: "approved", approver: MANAGER });
    return { runtime, coordinator, record: pending.approval };
  }

  it("a Date in gated input comes back from the coordinator as its ISO string, hashes the same and executes as that string", async () => {
    const calls: unknown[] = [];
    const { runtime, record } = await approveSchedule(scheduleRegistry(calls));
    expect(record.input).toStrictEqual({ at: "2030-05-06T07:08:09.010Z", amount: 10 });
    expect((await runtime.resume(record.id, { context: {} })).status).toBe("completed");
    expect(calls).toStrictEqual([{ at: "2030-05-06T07:08:09.010Z", amount: 10 }]);
  });

  it("a Date-typed schema fails safe at R8 on the ISO string and leaves the record unconsumed", async () => {
    const calls: unknown[] = [];
    const { runtime, coordinator, record } = await approveSchedule(scheduleRegistry(calls, z.object({ at: z.date(), amount: z.number() })));
    expect(failure(await runtime.resume(record.id, { context: {} })).code).toBe("INPUT_INVALID");
    expect(calls).toEqual([]);
    expect((await coordinator.get(record.id))!.status).toBe("approved");
  });
});
