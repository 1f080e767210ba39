// docs/architecture/spec/adapters.md#adapters-1-5 and docs/architecture/spec/adapters.md#adapters-2-4: one deterministic envelope per runtime status, byte-comparable.
import { describe, expect, it } from "vitest";
import { CapabilityError, type ApprovalRecord, type ErrorCode, type ExecutionResult } from "@orpc-agent/core";
import { approvalMessage } from "@orpc-agent/core/adapter";
import { concealedResult, toToolResult } from "../src/result.js";

const CONCEALED = '{"status":"error","error":{"code":"INTERNAL_ERROR","message":"The operation failed.","retryable":false}}';
/** A concealed transient failure: the code and message are hidden, the retryable bit is not. */
const CONCEALED_RETRYABLE = CONCEALED.replace('"retryable":false', '"retryable":true');

function pending(reasons: string[]): ExecutionResult {
  const approval = { id: "apr_1", reasons, input: { amount: 649, card: "4242" }, inputHash: "ab" } as unknown as ApprovalRecord;
  return { status: "approval-required", executionId: "exe_1", approval };
}

function failed(error: CapabilityError, status: "failed" | "cancelled" = "failed"): ExecutionResult {
  return { status, executionId: "exe_1", error };
}

describe("toToolResult", () => {
  it("a completed result is { status: ok, data } with the output itself, not reshaped", () => {
    const output = { orderId: "o1", lines: [{ sku: "a" }] };
    const result = toToolResult({ status: "completed", executionId: "exe_1", output });
    expect(JSON.stringify(result)).toBe('{"status":"ok","data":{"orderId":"o1","lines":[{"sku":"a"}]}}');
    expect((result as { data: unknown }).data).toBe(output);
  });

  it("a completed resume approved with changes adds approvedWithChanges: where what ran differs, never the values", () => {
    const changed = ["/amount"];
    const result = toToolResult({ status: "completed", executionId: "exe_1", output: "refunded", approvedWithChanges: { changed } });
    expect(JSON.stringify(result)).toBe('{"status":"ok","data":"refunded","approvedWithChanges":{"changed":["/amount"]}}');
    // A copy: the runtime's result and the envelope share nothing the caller could change.
    expect((result as { approvedWithChanges: { changed: string[] } }).approvedWithChanges.changed).not.toBe(changed);
  });

  it("an approval is { status, approvalId, message } and nothing else: no input, hash or expiry reaches the model", () => {
    const result = toToolResult(pending(["Approval is required for orders.refund."]));
    expect(JSON.stringify(result)).toBe(
      '{"status":"approval-required","approvalId":"apr_1","message":"Awaiting approval: Approval is required for orders.refund."}',
    );
  });

  it("SI-9: an exposed error crosses as { code, message, retryable } without details, stage or cause", () => {
    const error = new CapabilityError({
      code: "POLICY_DENIED",
      publicMessage: "Refunds of $5000 or more cannot be issued by agents.",
      details: { limit: 5000, internal: "policy-7" },
      cause: new Error("db row 42"),
    });
    expect(JSON.stringify(toToolResult(failed(error)))).toBe(
      '{"status":"error","error":{"code":"POLICY_DENIED","message":"Refunds of $5000 or more cannot be issued by agents.","retryable":false}}',
    );
  });

  it("SI-9: every unexposed code serializes to the one generic INTERNAL_ERROR, whatever its message or cause", () => {
    const codes: ErrorCode[] = ["EXECUTION_FAILED", "POLICY_FAILED", "OUTPUT_INVALID", "APPROVAL_RESUME_MISMATCH", "AUDIT_UNAVAILABLE", "ADAPTER_ERROR"];
    for (const code of codes) {
      const error = new CapabilityError({ code, publicMessage: "secret: users_table", cause: new Error("stack and all") });
      expect(JSON.stringify(toToolResult(failed(error))), code).toBe(error.retryable ? CONCEALED_RETRYABLE : CONCEALED);
    }
    expect(new CapabilityError({ code: "AUDIT_UNAVAILABLE" }).retryable).toBe(true);
    // An exposable code the runtime chose to conceal is concealed too.
    const concealedDenial = new CapabilityError({ code: "POLICY_DENIED", exposeToModel: false, publicMessage: "internal rule 7" });
    expect(JSON.stringify(toToolResult(failed(concealedDenial)))).toBe(CONCEALED);
  });

  it("INPUT_INVALID keeps its issue details, after retryable, so the model can self-correct", () => {
    const error = new CapabilityError({ code: "INPUT_INVALID", details: { issues: [{ path: ["amount"], message: "Too small" }] } });
    expect(JSON.stringify(toToolResult(failed(error)))).toBe(
      '{"status":"error","error":{"code":"INPUT_INVALID","message":"Input validation failed.","retryable":false,"details":{"issues":[{"path":["amount"],"message":"Too small"}]}}}',
    );
  });

  it("cancelled results are errors: TIMEOUT is retryable, CANCELLED is not", () => {
    expect(toToolResult(failed(new CapabilityError({ code: "TIMEOUT" }), "cancelled"))).toEqual({
      status: "error",
      error: { code: "TIMEOUT", message: "The operation timed out.", retryable: true },
    });
    expect(toToolResult(failed(new CapabilityError({ code: "CANCELLED" }), "cancelled"))).toEqual({
      status: "error",
      error: { code: "CANCELLED", message: "The operation was cancelled.", retryable: false },
    });
  });

  it("an unknown status is concealed rather than guessed at", () => {
    expect(JSON.stringify(toToolResult({ status: "paused", executionId: "exe_1" } as unknown as ExecutionResult))).toBe(CONCEALED);
  });

  it("concealedResult is a fresh object each time", () => {
    const first = concealedResult();
    expect(JSON.stringify(first)).toBe(CONCEALED);
    expect(concealedResult()).not.toBe(first);
  });
});

describe("approvalMessage", () => {
  it('is "Awaiting approval." without reasons', () => {
    expect(approvalMessage([])).toBe("Awaiting approval.");
    expect(toToolResult(pending([]))).toMatchObject({ message: "Awaiting approval." });
  });

  it("joins reasons with '; ', dropping one trailing '.' from each, so it never ends in '..'", () => {
    expect(approvalMessage(["Refund of $649 exceeds $500.", "Manager sign-off needed"])).toBe(
      "Awaiting approval: Refund of $649 exceeds $500; Manager sign-off needed.",
    );
    expect(approvalMessage(["Approval is required for orders.refund."])).not.toMatch(/\.\.$/);
  });
});
