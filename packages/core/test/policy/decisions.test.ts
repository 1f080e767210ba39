import { describe, expect, it } from "vitest";
import { allow, deny, hide, requireApproval } from "../../src/policy/decisions.js";

describe("decision helpers", () => {
  it("allow() carries metadata only when given", () => {
    expect(allow()).toStrictEqual({ type: "allow" });
    expect("metadata" in allow()).toBe(false);
    expect(allow({ rule: "r1" })).toStrictEqual({ type: "allow", metadata: { rule: "r1" } });
  });

  it("deny() carries code and message only when given", () => {
    expect(deny()).toStrictEqual({ type: "deny" });
    expect(deny("OVER_LIMIT")).toStrictEqual({ type: "deny", code: "OVER_LIMIT" });
    expect(deny(undefined, "Too large.")).toStrictEqual({ type: "deny", message: "Too large." });
    expect(deny("OVER_LIMIT", "Too large.")).toStrictEqual({ type: "deny", code: "OVER_LIMIT", message: "Too large." });
  });

  it("hide() is a bare hide decision", () => {
    expect(hide()).toStrictEqual({ type: "hide" });
  });

  it("returns a fresh object on every call", () => {
    expect(allow()).not.toBe(allow());
    expect(hide()).not.toBe(hide());
  });

  it("requireApproval() keeps only the given fields", () => {
    expect(requireApproval({ reason: "Large refund" })).toStrictEqual({ type: "require-approval", reason: "Large refund" });
    expect(requireApproval({ reason: "Large refund", approvalType: "manager", expiresInMs: 60_000 })).toStrictEqual({
      type: "require-approval",
      reason: "Large refund",
      approvalType: "manager",
      expiresInMs: 60_000,
    });
    expect("approvalType" in requireApproval({ reason: "r", approvalType: undefined })).toBe(false);
  });

  it.each([
    ["an empty reason", { reason: "" }],
    ["a missing reason", {}],
    ["a non-string reason", { reason: 1 }],
    ["an empty approvalType", { reason: "r", approvalType: "" }],
    ["a non-string approvalType", { reason: "r", approvalType: 1 }],
    ["a zero expiresInMs", { reason: "r", expiresInMs: 0 }],
    ["a negative expiresInMs", { reason: "r", expiresInMs: -5 }],
    ["a non-finite expiresInMs", { reason: "r", expiresInMs: Number.POSITIVE_INFINITY }],
    ["a NaN expiresInMs", { reason: "r", expiresInMs: Number.NaN }],
    ["missing options", undefined],
  ])("requireApproval() throws a TypeError for %s", (_label, options) => {
    expect(() => requireApproval(options as never)).toThrow(TypeError);
  });
});
