// What the generated tools return, and the tool sets they form.
import type { Tool } from "ai";

/**
 * What every generated tool returns, one deterministic shape per runtime status (docs/architecture/spec/adapters.md#adapters-1-5, docs/architecture/spec/adapters.md#adapters-2-4).
 * `approval-required` is not an error: the model tells the user and stops.
 */
export type AISDKToolResult =
  /** `approvedWithChanges`: the approver edited the input; RFC 6901 pointers to where what ran differs from what was asked. */
  | { status: "ok"; data: unknown; approvedWithChanges?: { changed: string[] } }
  | { status: "approval-required"; approvalId: string; message: string }
  | { status: "error"; error: { code: string; message: string; retryable: boolean; details?: unknown } };

/**
 * What every remote tool returns (docs/architecture/spec/adapters.md#adapters-2-6): the local shapes, with the invocation id on
 * `approval-required`, plus `outcome-unknown` when whether the effect happened cannot be said. Reconcile that
 * invocation before any further write.
 */
export type RemoteAISDKToolResult =
  /** `approvedWithChanges`: as on the local result, from the server's answer to a resume approved with changes. */
  | { status: "ok"; data: unknown; approvedWithChanges?: { changed: string[] } }
  | { status: "approval-required"; approvalId: string; message: string; invocationId: string }
  | { status: "error"; error: { code: string; message: string; retryable: boolean; details?: unknown } }
  | { status: "outcome-unknown"; invocationId: string; message: string };

/**
 * The tools of a local build: every tool returns `AISDKToolResult`, so `InferUITools<AISDKToolSet>` types each
 * `tool-<name>` part's `output` as the envelope.
 */
export type AISDKToolSet = Record<string, Tool<unknown, AISDKToolResult>>;

/** The tools of a remote build; outputs are `RemoteAISDKToolResult`. */
export type RemoteAISDKToolSet = Record<string, Tool<unknown, RemoteAISDKToolResult>>;
