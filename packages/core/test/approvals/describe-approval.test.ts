import { os } from "@orpc/server";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { agentMeta, agentProcedure, createCapabilityRegistry, describeApproval, type ApprovalRecord, type CapabilityDescriptor } from "../../src/index.js";

// describeApproval (issue 50): one view of an approval that every channel renders alike, holding only the input as
// `redact.approvalInput` shows it (SI-10), with labels from the input schema and who may still decide.

const NOW = new Date("2026-12-06T10:00:00.000Z");
const SECRET = "sentinel-view-9d1";

const registry = createCapabilityRegistry({
  orders: {
    refund: agentProcedure(os)
      .meta(
        agentMeta({
          description: "Refund an order, in full or in part.",
          expose: { direct: true, aiSdk: true },
          sideEffect: "write",
          risk: "high",
          approval: { required: true },
          redact: { approvalInput: (input) => ({ orderId: (input as { orderId: string }).orderId, amountCents: (input as { amountCents: number }).amountCents }) },
          adapters: { mcp: { annotations: { title: "Refund an order" } } },
        }),
      )
      .input(
        z.object({
          amountCents: z.number().meta({ title: "Amount (cents)", description: "What goes back to the customer." }),
          orderId: z.string().meta({ title: "Order" }),
          reason: z.string(),
        }),
      )
      .handler(() => "ok"),
    wipe: agentProcedure(os)
      .meta(agentMeta({ description: "Delete an account.", expose: { direct: true }, sideEffect: "destructive", risk: "medium", approval: { required: true } }))
      .input(z.object({ customerId: z.string() }))
      .handler(() => "ok"),
  },
});

function record(overrides: Partial<ApprovalRecord> = {}): ApprovalRecord {
  return {
    id: "apr_1",
    capabilityId: "orders.refund",
    surface: "aiSdk",
    actor: { id: "u_dana", kind: "user", displayName: "Dana", attributes: { ssn: SECRET }, via: { id: "agent_support", displayName: "Support bot" } },
    input: { orderId: "o_1002", amountCents: 32_000, reason: SECRET },
    inputHash: "0".repeat(64),
    reasons: ["Refund of 320 exceeds the 100 limit."],
    types: ["manager"],
    risk: "high",
    sideEffect: "write",
    requestedAt: new Date("2026-12-06T09:55:00.000Z"),
    expiresAt: new Date("2026-12-06T10:10:00.000Z"),
    status: "pending",
    ...overrides,
  };
}

describe("describeApproval", () => {
  it("shows title, risk flags, requester and acting agent, times, and the redacted input labelled from the schema", () => {
    const view = describeApproval(record(), registry.get("orders.refund"), { now: NOW });
    expect(view).toMatchObject({
      id: "apr_1",
      capabilityId: "orders.refund",
      title: "Refund an order",
      description: "Refund an order, in full or in part.",
      reasons: ["Refund of 320 exceeds the 100 limit."],
      types: ["manager"],
      risk: "high",
      sideEffect: "write",
      destructive: false,
      highRiskWrite: true,
      requester: { id: "u_dana", kind: "user", displayName: "Dana" },
      actingAgent: { id: "agent_support", displayName: "Support bot" },
      expiresInMs: 600_000,
      status: "pending",
      progress: { approvals: 0, quorum: 1, remaining: 1, label: "0 of 1 approval" },
      voters: [],
    });
    expect(view.requestedAt.toISOString()).toBe("2026-12-06T09:55:00.000Z");
    expect(view.input).toEqual({
      shown: true,
      value: { amountCents: 32_000, orderId: "o_1002" },
      fields: [
        { key: "amountCents", label: "Amount (cents)", description: "What goes back to the customer.", value: 32_000 },
        { key: "orderId", label: "Order", value: "o_1002" },
      ],
    });
    // Neither the hidden field nor the requester's attributes reach the view.
    expect(JSON.stringify(view)).not.toContain(SECRET);
    expect(view.requester).not.toHaveProperty("attributes");
  });

  it("flags a destructive capability and falls back to the id for the title and the key for a label", () => {
    const view = describeApproval(
      record({ id: "apr_2", capabilityId: "orders.wipe", input: { customerId: "c_grace" }, sideEffect: "destructive", risk: "medium", actor: { id: "root", kind: "user" } }),
      registry.get("orders.wipe"),
      { now: NOW },
    );
    expect(view).toMatchObject({ title: "orders.wipe", destructive: true, highRiskWrite: false, requester: { id: "root", kind: "user" } });
    expect(view).not.toHaveProperty("actingAgent");
    // No hook: the stored input is the capability's declared view.
    expect(view.input).toEqual({ shown: true, value: { customerId: "c_grace" }, fields: [{ key: "customerId", label: "customerId", value: "c_grace" }] });
  });

  it("withholds the input when the redaction is unknown, fails or has no JSON form, never showing it raw", () => {
    const descriptor: CapabilityDescriptor = {
      id: "orders.refund",
      description: "Refund an order.",
      inputSchema: { type: "object", properties: { orderId: { title: "Order" } } },
      sideEffect: "write",
      risk: "high",
      tags: [],
    };
    const throwing = { id: "orders.refund", meta: { redact: { approvalInput: () => { throw new Error(SECRET); } } } };
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const unrepresentable = { id: "orders.refund", meta: { redact: { approvalInput: () => cyclic } } };
    const cases = [
      [undefined, "no-capability"],
      [descriptor, "descriptor-only"],
      [throwing, "redaction-failed"],
      [unrepresentable, "unrepresentable"],
    ] as const;
    for (const [capability, reason] of cases) {
      const view = describeApproval(record(), capability, { now: NOW });
      expect(view.input).toEqual({ shown: false, reason });
      expect(JSON.stringify(view)).not.toContain(SECRET);
    }
    expect(describeApproval(record(), descriptor, { now: NOW }).description).toBe("Refund an order.");
  });

  it("is a deep-frozen copy: editing it changes neither the record nor what the hook returned", () => {
    const shown = { orderId: "o_1002", amountCents: 32_000 };
    const source = record({ approvals: [{ approver: { id: "mo", kind: "user" }, at: new Date("2026-12-06T09:58:00.000Z") }], quorum: 2 });
    const view = describeApproval(source, { id: "orders.refund", meta: { redact: { approvalInput: () => shown } } }, { now: NOW });
    const isDeepFrozen = (value: unknown): boolean =>
      typeof value !== "object" || value === null || value instanceof Date || (Object.isFrozen(value) && Object.values(value).every(isDeepFrozen));
    expect(isDeepFrozen(view)).toBe(true);
    expect(Object.isFrozen(shown)).toBe(false);
    view.expiresAt.setTime(0);
    view.voters[0]!.at.setTime(0);
    expect(source.expiresAt.toISOString()).toBe("2026-12-06T10:10:00.000Z");
    expect(source.approvals![0]!.at.toISOString()).toBe("2026-12-06T09:58:00.000Z");
  });

  it("shows quorum progress with the voters, the decision, and a pending record past its expiry as expired", () => {
    const at = new Date("2026-12-06T09:57:00.000Z");
    const quorum = describeApproval(record({ quorum: 2, approvals: [{ approver: { id: "mo", kind: "user", displayName: "Mo" }, at, comment: "ok" }] }), registry.get("orders.refund"), { now: NOW });
    expect(quorum.progress.label).toBe("1 of 2 approvals");
    expect(quorum.voters).toEqual([{ approver: { id: "mo", kind: "user", displayName: "Mo" }, at, comment: "ok" }]);
    expect(quorum.decidableBy.counted).toEqual(["mo"]);

    const decidedAt = new Date("2026-12-06T09:59:00.000Z");
    const approved = describeApproval(record({ status: "approved", decision: { status: "approved", approver: { id: "ben", kind: "user" }, decidedAt } }), undefined, { now: NOW });
    expect(approved).toMatchObject({ status: "approved", decision: { status: "approved", approver: { id: "ben", kind: "user" }, decidedAt }, voters: [{ approver: { id: "ben", kind: "user" }, at: decidedAt }] });
    expect(approved.decidableBy.open).toBe(false);

    // Approved with changes: the edit goes through the same hook as the request's input.
    const edit = { orderId: "o_1002", amountCents: 8_000, reason: SECRET };
    const changed = describeApproval(record({ status: "approved", decision: { status: "approved", approver: { id: "ben", kind: "user" }, decidedAt, input: edit } }), registry.get("orders.refund"), { now: NOW });
    expect(changed.decision?.editedInput).toMatchObject({ shown: true, value: { orderId: "o_1002", amountCents: 8_000 } });
    expect(JSON.stringify(changed)).not.toContain(SECRET);
    expect(describeApproval(record({ status: "approved", decision: { status: "approved", approver: { id: "ben", kind: "user" }, decidedAt, input: edit } }), undefined, { now: NOW }).decision?.editedInput).toEqual({ shown: false, reason: "no-capability" });

    const rejected = describeApproval(record({ status: "rejected", decision: { status: "rejected", approver: { id: "ben", kind: "user" }, comment: "no", decidedAt } }), undefined, { now: NOW });
    expect(rejected.voters).toEqual([]);
    expect(rejected.decision).toMatchObject({ status: "rejected", comment: "no" });

    const late = describeApproval(record(), undefined, { now: new Date("2026-12-06T10:10:00.001Z") });
    expect(late).toMatchObject({ status: "expired", expiresInMs: 0, decidableBy: { open: false } });
    // At exactly expiresAt the approval is still live (expiry is strict).
    expect(describeApproval(record(), undefined, { now: new Date("2026-12-06T10:10:00.000Z") })).toMatchObject({ status: "pending", expiresInMs: 0, decidableBy: { open: true } });
  });

  it("refuses a missing or invalid now", () => {
    expect(() => describeApproval(record(), undefined, { now: new Date(Number.NaN) })).toThrow(TypeError);
    expect(() => describeApproval(record(), undefined, undefined as never)).toThrow(/options\.now/);
  });
});
