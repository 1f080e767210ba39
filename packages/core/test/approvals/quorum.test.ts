import { describe, expect, it } from "vitest";
import { approvalProgress, isValidQuorum, quorumOf } from "../../src/approvals/quorum.js";
import { buildApprovalRequest } from "../../src/runtime/approvals/build-request.js";
import { isPolicyDecision } from "../../src/policy/is-decision.js";
import { requireApproval } from "../../src/policy/decisions.js";
import { buildProblems, procedureWith, validAgent } from "../registry/fixtures.js";
import { createCapabilityRegistry } from "../../src/registry/create-registry.js";
import type { CapabilityPlan } from "../../src/runtime/plan.js";

// Quorum approvals: validation, request building (the largest quorum demanded wins) and the progress UIs show.
const INVALID: unknown[] = [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, "2", null, 2 ** 53];

describe("quorum validation", () => {
  it("a quorum is a safe integer >= 1", () => {
    for (const value of [1, 2, 10]) expect(isValidQuorum(value)).toBe(true);
    for (const value of INVALID) expect(isValidQuorum(value)).toBe(false);
  });

  it("requireApproval keeps a valid quorum, omits an absent one and throws a TypeError for an invalid one", () => {
    expect(requireApproval({ reason: "Four eyes.", approvalType: "finance", quorum: 2 })).toEqual({
      type: "require-approval",
      reason: "Four eyes.",
      approvalType: "finance",
      quorum: 2,
    });
    expect(requireApproval({ reason: "One." })).not.toHaveProperty("quorum");
    for (const quorum of INVALID) {
      expect(() => requireApproval({ reason: "x", quorum: quorum as number })).toThrow(/quorum.*integer >= 1/);
    }
  });

  it("a hand-written require-approval with an invalid quorum is not a decision (the policy fails closed)", () => {
    expect(isPolicyDecision({ type: "require-approval", reason: "x", quorum: 3 })).toBe(true);
    for (const quorum of INVALID) expect(isPolicyDecision({ type: "require-approval", reason: "x", quorum })).toBe(false);
  });

  it("meta.approval.quorum must be an integer >= 1 (a registry problem)", () => {
    expect(() => createCapabilityRegistry({ orders: { refund: procedureWith({ ...validAgent, approval: { required: true, quorum: 2 } }) } })).not.toThrow();
    expect(buildProblems({ orders: { refund: procedureWith({ ...validAgent, approval: { required: true, quorum: 0 } }) } })).toEqual([
      "orders.refund: meta.approval.quorum must be an integer >= 1, got 0",
    ]);
  });
});

function plan(approval: CapabilityPlan["meta"]["approval"], required = approval?.required === true): CapabilityPlan {
  return { id: "payments.wire", approvalRequired: required, meta: { risk: "high", sideEffect: "external", approval } } as unknown as CapabilityPlan;
}

function build(p: CapabilityPlan, demands: { quorum?: number; approvalType?: string }[]) {
  return buildApprovalRequest({
    plan: p,
    surface: "direct",
    actor: { id: "dana", kind: "user" },
    input: {},
    inputHash: "h",
    submittedInput: {},
    demands: demands.map((d, i) => ({ policy: `p${i}`, reason: `r${i}`, ...d })),
    requestedAt: new Date(0),
    defaultExpiresInMs: 1_000,
  });
}

describe("request building", () => {
  it("the largest quorum demanded wins; a quorum of 1 is left out of the request", () => {
    expect(build(plan({ required: true, quorum: 2 }), []).quorum).toBe(2);
    expect(build(plan({ required: true, quorum: 2 }), [{ quorum: 3 }, { quorum: 1 }]).quorum).toBe(3);
    expect(build(plan({ required: true, type: "finance", quorum: 3 }), [{ approvalType: "finance" }]).quorum).toBe(3);
    expect(build(plan(undefined), [{ quorum: 2, approvalType: "finance" }]).quorum).toBe(2);
    // The capability's own quorum applies to every request built for it, like its expiresInMs.
    expect(build(plan({ quorum: 2 }, false), [{}]).quorum).toBe(2);
    expect(build(plan({ required: true }), [{ quorum: 1 }])).not.toHaveProperty("quorum");
  });
});

describe("approvalProgress", () => {
  const base = { status: "pending" as const };
  it("counts the votes of a quorum record and the approving decision of a single-approver record", () => {
    const vote = (id: string) => ({ approver: { id, kind: "user" as const }, at: new Date(0) });
    expect(approvalProgress({ ...base, quorum: 2, approvals: [] })).toEqual({ approvals: 0, quorum: 2, remaining: 2, label: "0 of 2 approvals" });
    expect(approvalProgress({ ...base, quorum: 2, approvals: [vote("mo")] }).label).toBe("1 of 2 approvals");
    expect(approvalProgress({ status: "approved", quorum: 2, approvals: [vote("mo"), vote("ana")] }).remaining).toBe(0);
    expect(approvalProgress(base).label).toBe("0 of 1 approval");
    const decision = { status: "approved" as const, approver: { id: "mo", kind: "user" as const }, decidedAt: new Date(0) };
    expect(approvalProgress({ status: "consumed", decision }).label).toBe("1 of 1 approval");
    expect(approvalProgress({ status: "rejected", decision: { ...decision, status: "rejected" } }).label).toBe("0 of 1 approval");
    expect(quorumOf({})).toBe(1);
    expect(quorumOf({ quorum: 0 })).toBe(1);
  });
});
