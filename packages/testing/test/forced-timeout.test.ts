import type { ExecutionResult } from "@orpc-agent/core";
import { describe, expect, it } from "vitest";
import { createAgentTestRuntime } from "../src/index.js";
import { buildShop } from "./shop.js";

function errorOf(result: ExecutionResult) {
  if (result.status !== "failed" && result.status !== "cancelled") throw new Error(`expected a failure, got ${result.status}`);
  return result.error;
}

describe("per-call timeoutMs", () => {
  it("SI-11: a write outliving a forced timeout is cancelled TIMEOUT and never retried", async () => {
    const { registry, calls } = buildShop();
    const t = createAgentTestRuntime({ registry });
    const result = await t.invoke("orders.cancel", { id: "o1" }, { timeoutMs: 20 });
    expect(result.status).toBe("cancelled");
    expect(errorOf(result).code).toBe("TIMEOUT");
    expect(calls.cancel).toBe(1);
    expect(t.audit.types()).not.toContain("capability.retried");
    expect(t.audit.ofType("capability.cancelled").map((event) => event.data)).toEqual([
      expect.objectContaining({ code: "TIMEOUT", effectStatus: "unknown" }),
    ]);
  });

  it("a read with retry configured is retried on the forced timeout, so the write above was held back by SI-11, not by the harness", async () => {
    const { registry, calls } = buildShop();
    const t = createAgentTestRuntime({ registry });
    const result = await t.invoke("orders.search", {}, { timeoutMs: 10 });
    expect(errorOf(result).code).toBe("TIMEOUT");
    expect(calls.search).toBe(3);
    expect(t.audit.ofType("capability.retried").map((event) => event.data.attempt)).toEqual([2, 3]);
  });

  it("leaves other calls on the capability's own timeout and shares the coordinator with the main runtime", async () => {
    const { registry } = buildShop();
    const t = createAgentTestRuntime({ registry });
    expect(t.runtime.registry.get("orders.cancel")!.meta.timeoutMs).toBeUndefined();
    const pending = await t.invoke("orders.refund", { id: "o1", amount: 3 }, { timeoutMs: 1_000 });
    if (pending.status !== "approval-required") throw new Error(`expected approval-required, got ${pending.status}`);
    await t.approvals.approve(pending.approval.id);
    expect(await t.resume(pending.approval.id)).toMatchObject({ status: "completed", output: { refunded: 3 } });
    expect((await t.invoke("orders.get", { id: "o1" }, { timeoutMs: 1_000 })).status).toBe("completed");
  });

  it("rejects a timeoutMs that is not a finite number > 0", async () => {
    const { registry, calls } = buildShop();
    const t = createAgentTestRuntime({ registry });
    for (const timeoutMs of [0, -5, Number.NaN, Number.POSITIVE_INFINITY, "20" as never]) {
      await expect(t.invoke("orders.get", { id: "o1" }, { timeoutMs })).rejects.toThrow(TypeError);
    }
    expect(calls.get).toBe(0);
  });
});
