// docs/architecture/spec/adapters.md#adapters-2-6 mapping, docs/architecture/spec/adapters.md#adapters-1-5 serialization: what a remote tool returns for each client-reported result.
import { describe, expect, it } from "vitest";
import type { RemoteExecutionResult } from "@orpc-agent/core/client";
import { OUTCOME_UNKNOWN_MESSAGE, toRemoteToolResult } from "../src/remote-result.js";
import { remoteResults } from "./support/spy-client.js";

const ID = "inv-1";
const UNKNOWN = { status: "outcome-unknown", invocationId: ID, message: OUTCOME_UNKNOWN_MESSAGE };

describe("toRemoteToolResult", () => {
  it("completed is exactly { status: ok, data } with the output unreshaped", () => {
    const output = { nested: { list: [1, 2] }, empty: null };
    const result = toRemoteToolResult(remoteResults.completed(ID, output), ID);
    expect(JSON.stringify(result)).toBe('{"status":"ok","data":{"nested":{"list":[1,2]},"empty":null}}');
    expect((result as { data: unknown }).data).toBe(output);
  });

  it("approval-required is the local shape plus the invocation id, with the §1.5 message", () => {
    expect(JSON.stringify(toRemoteToolResult(remoteResults.approvalRequired(ID), ID))).toBe(
      '{"status":"approval-required","approvalId":"apr_1","message":"Awaiting approval: Approval is required for orders.refund.","invocationId":"inv-1"}',
    );
    expect(toRemoteToolResult(remoteResults.approvalRequired(ID, []), ID)).toMatchObject({ message: "Awaiting approval." });
    expect(toRemoteToolResult(remoteResults.approvalRequired(ID, ["Over limit.", "Weekend"]), ID)).toMatchObject({
      message: "Awaiting approval: Over limit; Weekend.",
    });
  });

  it("the exact outcome-unknown envelope, whatever the client's reason and message", () => {
    for (const reason of ["transport", "aborted", "in-progress"] as const) {
      const result = toRemoteToolResult(remoteResults.outcomeUnknown(ID, reason), ID);
      expect(JSON.stringify(result)).toBe(
        '{"status":"outcome-unknown","invocationId":"inv-1","message":"The outcome of this operation could not be confirmed. Do not repeat it until it has been reconciled."}',
      );
    }
  });

  it("failed and cancelled carry the client-reported error in the fixed key order", () => {
    const denied = toRemoteToolResult(remoteResults.failed(ID, { retryable: false, message: "Not for agents.", code: "POLICY_DENIED" }), ID);
    expect(JSON.stringify(denied)).toBe('{"status":"error","error":{"code":"POLICY_DENIED","message":"Not for agents.","retryable":false}}');
    expect(toRemoteToolResult(remoteResults.cancelled(ID), ID)).toEqual({
      status: "error",
      error: { code: "CANCELLED", message: "The operation was cancelled.", retryable: false },
    });
    const stale = toRemoteToolResult(
      remoteResults.failed(ID, { code: "DESCRIPTOR_STALE", message: "The capability changed; refresh the tool list.", retryable: false }),
      ID,
    );
    expect(stale).toEqual({ status: "error", error: { code: "DESCRIPTOR_STALE", message: "The capability changed; refresh the tool list.", retryable: false } });
  });

  it("SI-9: details cross only for INPUT_INVALID; INTERNAL_ERROR and ADAPTER_ERROR are always the generic error, retryable bit kept", () => {
    const issues = { issues: [{ path: ["amount"], message: "Too small" }] };
    expect(toRemoteToolResult(remoteResults.failed(ID, { code: "INPUT_INVALID", message: "Input validation failed.", retryable: false, details: issues }), ID)).toEqual({
      status: "error",
      error: { code: "INPUT_INVALID", message: "Input validation failed.", retryable: false, details: issues },
    });
    const leaky = toRemoteToolResult(remoteResults.failed(ID, { code: "POLICY_DENIED", message: "No.", retryable: false, details: { rule: "secret-rule" } }), ID);
    expect(JSON.stringify(leaky)).not.toContain("secret-rule");
    for (const code of ["INTERNAL_ERROR", "ADAPTER_ERROR"]) {
      for (const retryable of [true, false]) {
        const result = toRemoteToolResult(remoteResults.failed(ID, { code, message: "stack: users_table", retryable, details: { why: "users_table" } }), ID);
        expect(JSON.stringify(result)).toBe(`{"status":"error","error":{"code":"INTERNAL_ERROR","message":"The operation failed.","retryable":${retryable}}}`);
      }
    }
  });

  it("D-4: an answer it cannot read was still sent, so it reads as outcome-unknown, never as an error or a throw", () => {
    const unreadable: unknown[] = [
      undefined,
      null,
      "completed",
      { status: "settled" },
      { status: "failed" },
      { status: "failed", error: { code: 7, message: "x", retryable: false } },
      { status: "approval-required" },
      { status: "approval-required", approval: { id: "apr_1" } },
    ];
    for (const result of unreadable) expect(toRemoteToolResult(result as RemoteExecutionResult, ID), JSON.stringify(result)).toEqual(UNKNOWN);
  });

  it("the outcome-unknown and approval results name the invocation the tool allocated", () => {
    const elsewhere = toRemoteToolResult(remoteResults.outcomeUnknown("inv-other"), ID);
    expect(elsewhere).toEqual(UNKNOWN);
    expect(toRemoteToolResult(remoteResults.approvalRequired("inv-other"), ID)).toMatchObject({ invocationId: ID });
  });
});
