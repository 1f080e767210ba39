import { os } from "@orpc/server";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import {
  agentMeta,
  agentProcedure,
  CapabilityError,
  createAgentRuntime,
  createCapabilityRegistry,
  createInMemoryApprovalCoordinator,
  defineGovernance,
  unwrap,
  type ExecutionResult,
} from "../../src/index.js";

// docs/architecture/spec/core.md#core-9 `unwrap(result)`: output, or a throw.

const actor = { id: "user_dana", kind: "user" } as const;

const registry = createCapabilityRegistry({
  orders: {
    get: agentProcedure(os)
      .input(z.object({ id: z.string() }))
      .meta(agentMeta({ description: "Read an order.", expose: { direct: true }, sideEffect: "read", risk: "low" }))
      .handler(({ input }) => ({ id: input.id, total: 30 })),
    refund: agentProcedure(os)
      .input(z.object({ id: z.string() }))
      .meta(agentMeta({ description: "Refund an order.", expose: { direct: true }, sideEffect: "write", risk: "high", approval: { required: true } }))
      .handler(() => ({ refunded: true })),
    slow: agentProcedure(os)
      .meta(agentMeta({ description: "Never finishes.", expose: { direct: true }, sideEffect: "read", risk: "low", timeoutMs: 5 }))
      .handler(({ signal }) => new Promise((_, reject) => signal?.addEventListener("abort", () => reject(signal.reason)))),
  },
});
const runtime = createAgentRuntime({ governance: defineGovernance({ registry }), approvals: { coordinator: createInMemoryApprovalCoordinator() } });

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}

describe("unwrap", () => {
  it("returns the output of a completed execution", async () => {
    const result = await runtime.invoke("orders.get", { id: "o1" }, { actor, context: {} });
    expect(unwrap(result)).toStrictEqual({ id: "o1", total: 30 });
  });

  it("throws the envelope's own error for a failed execution", async () => {
    const result = await runtime.invoke("orders.get", { id: 42 }, { actor, context: {} });
    expect(result.status).toBe("failed");
    if (result.status !== "failed") return;
    expect(thrown(() => unwrap(result))).toBe(result.error);
    expect(result.error.code).toBe("INPUT_INVALID");
  });

  it("throws the envelope's own error for a cancelled execution", async () => {
    const result = await runtime.invoke("orders.slow", undefined, { actor, context: {} });
    expect(result.status).toBe("cancelled");
    if (result.status !== "cancelled") return;
    expect(thrown(() => unwrap(result))).toBe(result.error);
    expect(result.error.code).toBe("TIMEOUT");
  });

  it("throws APPROVAL_REQUIRED with the record in details.approval for a suspension", async () => {
    const result = await runtime.invoke("orders.refund", { id: "o1" }, { actor, context: {} });
    expect(result.status).toBe("approval-required");
    if (result.status !== "approval-required") return;
    const error = thrown(() => unwrap(result));
    expect(error).toBeInstanceOf(CapabilityError);
    expect(error).toMatchObject({ code: "APPROVAL_REQUIRED", stage: "approval", exposeToModel: true, retryable: false });
    expect((error as CapabilityError).details).toStrictEqual({ approval: result.approval });
    expect(((error as CapabilityError).details as { approval: unknown }).approval).toBe(result.approval);
  });

  it("works on hand-built envelopes too", () => {
    const error = new CapabilityError({ code: "POLICY_DENIED" });
    const failed: ExecutionResult<number> = { status: "failed", executionId: "exe_1", error };
    const completed: ExecutionResult<number> = { status: "completed", executionId: "exe_2", output: 0 };
    expect(() => unwrap(failed)).toThrow(error);
    expect(unwrap(completed)).toBe(0);
  });
});
