// Raised from the mutation run: decision shapes at the edges of docs/architecture/spec/core.md#core-3 (SI-7: anything else is an error stance).
import { describe, expect, it } from "vitest";
import { isPolicyDecision } from "../../../src/policy/is-decision.js";

describe("isPolicyDecision edges", () => {
  it.each([
    ["require-approval with an array approvalType", { type: "require-approval", reason: "r", approvalType: ["manager"] }],
    ["require-approval with an infinite expiry", { type: "require-approval", reason: "r", expiresInMs: Number.POSITIVE_INFINITY }],
    ["require-approval with a zero expiry", { type: "require-approval", reason: "r", expiresInMs: 0 }],
    ["allow with array metadata", { type: "allow", metadata: [] }],
    ["allow with null metadata", { type: "allow", metadata: null }],
  ])("rejects %s", (_label, value) => {
    expect(isPolicyDecision(value)).toBe(false);
  });
});
