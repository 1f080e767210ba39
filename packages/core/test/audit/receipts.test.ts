import { os } from "@orpc/server";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import {
  agentMeta,
  agentProcedure,
  createAgentRuntime,
  createCapabilityRegistry,
  defineGovernance,
  parseReceiptId,
  verifyAuditTrail,
  auditChainRecord,
  type AgentAuditEvent,
  type AuditChainLink,
} from "../../src/index.js";
import { captureStartupWarnings } from "../support/startup-warnings.js";

// The gated capability runs without a coordinator on purpose: W1, captured and asserted.
captureStartupWarnings(["W1"]);

// ADR-025 receipts across an approval: the suspended call has none, the resumed one gets the receipt of its
// terminal event, and the receipt locates that execution's events in the (verifiable) chain.
const base = agentProcedure(os);
const governance = defineGovernance({
  registry: createCapabilityRegistry({
    refunds: {
      issue: base
        .input(z.object({ amount: z.number() }))
        .meta(agentMeta({ description: "Issue a refund.", expose: { direct: true }, sideEffect: "write", risk: "high", approval: { required: true } }))
        .handler(async ({ input }) => ({ refunded: input.amount })),
    },
  }),
});
const requester = { id: "user_dana", kind: "user" } as const;
const manager = { id: "user_mia", kind: "user" } as const;

describe("receipts (ADR-025)", () => {
  it("a resumed execution's result and terminal event share a receipt that locates its events", async () => {
    const events: (AgentAuditEvent & { chain: AuditChainLink })[] = [];
    const runtime = createAgentRuntime({ governance, audit: { sinks: [(event) => void events.push(event as never)], chain: true } });
    const pending = await runtime.invoke("refunds.issue", { amount: 5 }, { actor: requester, context: {} });
    expect(pending.status).toBe("approval-required");
    expect("receiptId" in pending).toBe(false);
    if (pending.status !== "approval-required") return;
    await runtime.approvals.decide(pending.approval.id, { status: "approved", approver: manager });
    const resumed = await runtime.resume(pending.approval.id, { context: {} });
    expect(resumed.status).toBe("completed");
    const receiptId = (resumed as { receiptId?: string }).receiptId as string;
    const place = parseReceiptId(receiptId)!;
    const terminal = events.find((event) => event.chain.seq === place.seq)!;
    expect(terminal).toMatchObject({ type: "capability.completed", receiptId, executionId: resumed.executionId });
    // One chain for the whole story: request, approval decision, resumed execution.
    expect(new Set(events.map((event) => event.chain.id))).toEqual(new Set([place.chainId]));
    expect(events.filter((event) => event.executionId === resumed.executionId).map((event) => event.type)).toContain("capability.started");
    const report = verifyAuditTrail({ events: events.map(auditChainRecord), checkpoints: [] });
    expect(report).toMatchObject({ intact: true, findings: [] });
  });

  it("a denied call gets a receipt too", async () => {
    const events: AgentAuditEvent[] = [];
    const runtime = createAgentRuntime({ governance, audit: { sinks: [(event) => void events.push(event)], chain: true } });
    const result = await runtime.invoke("refunds.missing", {}, { actor: requester, context: {} });
    expect(result.status).toBe("failed");
    const receiptId = (result as { receiptId?: string }).receiptId;
    expect(events.find((event) => event.receiptId === receiptId)?.type).toBe("capability.denied");
  });
});
