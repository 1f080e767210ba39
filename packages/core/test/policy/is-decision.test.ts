import { describe, expect, it } from "vitest";
import { allow, deny, hide, requireApproval } from "../../src/policy/decisions.js";
import { isPolicyDecision } from "../../src/policy/is-decision.js";

describe("isPolicyDecision", () => {
  it("accepts the four shapes the helpers build", () => {
    for (const decision of [allow(), allow({ a: 1 }), deny("C", "m"), hide(), requireApproval({ reason: "r", expiresInMs: 5 })]) {
      expect(isPolicyDecision(decision)).toBe(true);
    }
  });

  it("ignores extra fields", () => {
    expect(isPolicyDecision({ type: "allow", input: { amount: 1 } })).toBe(true);
  });

  it.each([
    ["undefined", undefined],
    ["null", null],
    ["a string", "allow"],
    ["an unknown type", { type: "permit" }],
    ["allow with array metadata", { type: "allow", metadata: [1] }],
    ["deny with a numeric code", { type: "deny", code: 403 }],
    ["require-approval without reason", { type: "require-approval" }],
    ["require-approval with an empty reason", { type: "require-approval", reason: "" }],
    ["require-approval with a negative expiry", { type: "require-approval", reason: "r", expiresInMs: -1 }],
  ])("rejects %s", (_label, value) => {
    expect(isPolicyDecision(value)).toBe(false);
  });
});
