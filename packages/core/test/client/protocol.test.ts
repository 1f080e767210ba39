import { describe, expect, it } from "vitest";
import { REMOTE_PROTOCOL, isOutcomeUnknown, isSettled, type RemoteExecutionResult } from "../../src/client/index.js";

const env = { protocol: 1 as const, invocationId: "inv-1", executionId: "exe_1", replayed: false };
const results: RemoteExecutionResult[] = [
  { ...env, status: "completed", output: 1 },
  { ...env, status: "approval-required", approval: { id: "apr_1", capabilityId: "c", status: "pending", reasons: [], types: [], requestedAt: "", expiresAt: "" } },
  { ...env, status: "failed", error: { code: "POLICY_DENIED", message: "m", retryable: false } },
  { ...env, status: "cancelled", error: { code: "CANCELLED", message: "m", retryable: false } },
  { protocol: 1, status: "outcome-unknown", invocationId: "inv-1", message: "m", reason: "transport" },
];

describe("core/client helpers", () => {
  it("REMOTE_PROTOCOL is 1", () => {
    expect(REMOTE_PROTOCOL).toBe(1);
  });

  it("isOutcomeUnknown is true only for outcome-unknown; isSettled only for terminal answers", () => {
    expect(results.map((r) => isOutcomeUnknown(r))).toEqual([false, false, false, false, true]);
    expect(results.map((r) => isSettled(r))).toEqual([true, false, true, true, false]);
  });
});
