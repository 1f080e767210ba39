// Raised from the mutation run: core runs where only Web Crypto exists (docs/architecture/spec/core.md#core-16). The input hash is then
// asynchronous, and every stage that needs it must wait for it: evidence, the approval gate, R5 and the digest.
import { createHash } from "node:crypto";
import { os } from "@orpc/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { captureStartupWarnings } from "../../support/startup-warnings.js";
import type * as Core from "../../../src/index.js";
import { agentMeta } from "@orpc-agent/core";

// The startup warnings these tests provoke on purpose (docs/architecture/spec/core.md#core-5), captured and asserted.
captureStartupWarnings(["W4"]);

const original = process.getBuiltinModule;
afterEach(() => {
  process.getBuiltinModule = original;
  vi.resetModules();
});

async function coreWithoutNodeCrypto(): Promise<typeof Core> {
  (process as { getBuiltinModule?: unknown }).getBuiltinModule = undefined;
  vi.resetModules();
  try {
    return await import("../../../src/index.js");
  } finally {
    process.getBuiltinModule = original;
  }
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

describe("the runtime on Web Crypto alone", () => {
  it("SI-5: binds approvals and records input hashes with the asynchronous hash, then resumes", async () => {
    const core = await coreWithoutNodeCrypto();
    const events: Core.AgentAuditEvent[] = [];
    const registry = core.createCapabilityRegistry({
      refund: core
        .agentProcedure(os)
        .meta(agentMeta({ description: "Refund.", expose: { direct: true }, sideEffect: "write", risk: "high", approval: { required: true } }))
        .handler(({ input }) => ({ refunded: (input as { amount: number }).amount })),
    });
    const runtime = core.createAgentRuntime({
      governance: core.defineGovernance({ registry }),
      audit: (e) => void events.push(e),
      approvals: { coordinator: core.createInMemoryApprovalCoordinator() },
    });
    const input = { amount: 5, id: "o1" };
    const expected = sha256('{"amount":5,"id":"o1"}');

    const pending = await runtime.invoke("refund", input, { actor: { id: "dana", kind: "user" }, context: {} });
    expect(pending.status).toBe("approval-required");
    if (pending.status !== "approval-required") return;
    expect(pending.approval.inputHash).toBe(expected);
    expect(events.find((e) => e.type === "capability.approval_requested")?.inputHash).toBe(expected);

    await runtime.approvals.decide(pending.approval.id, { status: "approved", approver: { id: "priya", kind: "user" } });
    const done = await runtime.resume(pending.approval.id, { context: {} });
    expect(done).toMatchObject({ status: "completed", output: { refunded: 5 } });
    expect(events.filter((e) => e.type === "capability.started").map((e) => e.inputHash)).toEqual([expected]);
  });

  it("SI-5: stored input that no longer matches its hash still fails R5", async () => {
    const core = await coreWithoutNodeCrypto();
    const inner = core.createInMemoryApprovalCoordinator();
    const coordinator: Core.ApprovalCoordinator = {
      ...inner,
      get: async (id) => {
        const record = await inner.get(id);
        return record && { ...record, input: { amount: 500, id: "o1" } };
      },
    };
    const registry = core.createCapabilityRegistry({
      refund: core
        .agentProcedure(os)
        .meta(agentMeta({ description: "Refund.", expose: { direct: true }, sideEffect: "write", risk: "high", approval: { required: true } }))
        .handler(() => "refunded"),
    });
    const runtime = core.createAgentRuntime({ governance: core.defineGovernance({ registry }), audit: () => {}, approvals: { coordinator } });
    const pending = await runtime.invoke("refund", { amount: 5, id: "o1" }, { actor: { id: "dana", kind: "user" }, context: {} });
    if (pending.status !== "approval-required") throw new Error("expected a suspension");
    await runtime.approvals.decide(pending.approval.id, { status: "approved", approver: { id: "priya", kind: "user" } });
    const result = await runtime.resume(pending.approval.id, { context: {} });
    expect(result.status === "failed" && result.error.code).toBe("APPROVAL_INPUT_MISMATCH");
  });

  it("gives capabilities.discovered the same digest as a runtime with node:crypto", async () => {
    const digestWith = async (core: typeof Core) => {
      const events: Core.AgentAuditEvent[] = [];
      const cap = core.agentProcedure(os).meta(agentMeta({ description: "Read.", expose: { mcp: true }, sideEffect: "read", risk: "low" })).handler(() => "ok");
      const registry = core.createCapabilityRegistry({ b: cap, a: cap });
      const runtime = core.createAgentRuntime({ governance: core.defineGovernance({ registry }), audit: (e) => void events.push(e) });
      await runtime.describe("mcp", { actor: { id: "dana", kind: "user" }, context: {} });
      return (events.find((e) => e.type === "capabilities.discovered") as Extract<Core.AgentAuditEvent, { type: "capabilities.discovered" }>).data.digest;
    };
    const onNode = await digestWith(await import("../../../src/index.js"));
    const onWebCrypto = await digestWith(await coreWithoutNodeCrypto());
    expect(onNode).toMatch(/^[0-9a-f]{64}$/);
    expect(onWebCrypto).toBe(onNode);
  });
});
