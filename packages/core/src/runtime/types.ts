import type { Actor, ExposureSurface, RiskLevel, SideEffect } from "../vocabulary/types.js";
import type { ApprovalCoordinator, ApprovalRecord, RuntimeApprovals } from "../approvals/types.js";
import type { RuntimeGrants } from "../approvals/grants/types.js";
import type { CapabilityError } from "../errors/capability-error.js";
import type { AgentGovernance } from "../governance/types.js";
import type { CapabilityRegistry } from "../registry/types.js";
import type { JsonSchemaObject } from "../schema/types.js";
import type { ProgressUpdate } from "../capability/types.js";

export type ExecutionOptions<TContext = unknown> = {
  actor: Actor;
  context: TContext;
  surface?: ExposureSurface;
  signal?: AbortSignal;
  correlationId?: string;
  /** A trusted effect key from the application, never from model input. */
  idempotencyKey?: string;
  /** The invocation service's invocation id, handed to the procedure as `context.agent.invocationId`. */
  invocationId?: string;
  /**
   * The conversation the call belongs to (an AI SDK chat id, an MCP session's when `createContext` supplies one), from
   * the app, never from model input. A standing grant scoped to a conversation covers only calls carrying its id;
   * an approval request keeps it (SI-13, docs/guides/standing-grants.md).
   */
  conversationId?: string;
  /**
   * Receives the capability's progress reports (`context.agent.reportProgress`), validated and throttled, never after
   * the result has settled. What it throws or returns is ignored: it never changes the call.
   */
  onProgress?: (update: ProgressUpdate) => void;
  /**
   * Receives each event of a streaming capability, redacted, in order. The next event is pulled only once the promise
   * it returns settles (backpressure); a throw or rejection ends the stream as `cancelled` (the caller stopped taking
   * events; the handler's iterator is returned). Without it the events are still
   * pulled and redacted, and only the last is returned. Ignored for non-streaming capabilities.
   */
  onEvent?: (event: unknown) => void | Promise<void>;
};

export type ExecutionRequest<TContext = unknown> = {
  executionId: string;
  capabilityId: string;
  surface: ExposureSurface;
  actor: Actor;
  context: TContext;
  input: unknown;
  correlationId?: string;
};

export type ResumeOptions<TContext = unknown> = {
  context: TContext;
  signal?: AbortSignal;
  expectedActor?: Actor;
  expectedSurface?: ExposureSurface;
  correlationId?: string;
  idempotencyKey?: string;
  /** As `ExecutionOptions.invocationId`. */
  invocationId?: string;
  /** As `ExecutionOptions.onProgress`. */
  onProgress?: (update: ProgressUpdate) => void;
  /** As `ExecutionOptions.onEvent`. */
  onEvent?: (event: unknown) => void | Promise<void>;
};

export type DescribeScope = { tags?: string[]; ids?: string[] };

export type DescribeOptions<TContext = unknown> = {
  actor: Actor;
  context: TContext;
  scope?: DescribeScope;
  /**
   * `"copy"` (default): every descriptor carries a fresh JSON-tree copy of its input schema, the caller's to
   * change. `"shared"`: one deep-frozen tree per capability, the same object on every call and for every actor
   * (a write to it throws). For callers that only read or serialize schemas, such as adapters building tool lists;
   * it skips the copy, which is most of the cost of describe.
   */
  inputSchemas?: "copy" | "shared";
};

export type CapabilityDescriptor = {
  id: string;
  description: string;
  inputSchema: JsonSchemaObject;
  sideEffect: SideEffect;
  risk: RiskLevel;
  tags: string[];
  requiresApproval?: true;
  contextual?: true;
  /** The capability streams: its output is an oRPC event iterator (pass `onEvent` to receive each event). */
  streaming?: true;
};

/**
 * `receiptId` (with `audit.chain`): `<chainId>.<seq>` of the terminal audit event, which carries the same id; it
 * locates the execution's events in the hash chain. A suspended execution has no terminal event, so no receipt.
 */
export type ExecutionResult<O = unknown> =
  | {
      status: "completed";
      executionId: string;
      /** A streaming capability's last event (redacted), or undefined when it yielded none. */
      output: O;
      receiptId?: string;
      /** Streaming capabilities only: how many events the stream delivered. */
      eventCount?: number;
      /**
       * Resume only, when the approver approved with changes: RFC 6901 pointers (sorted) to where the input that ran
       * differs from the input requested. The model is told where, never the values. docs/guides/approvals.md#approve-with-changes
       */
      approvedWithChanges?: { changed: string[] };
    }
  | { status: "approval-required"; executionId: string; approval: ApprovalRecord }
  | { status: "failed"; executionId: string; error: CapabilityError; effectStatus?: "unknown"; receiptId?: string }
  | { status: "cancelled"; executionId: string; error: CapabilityError; effectStatus?: "unknown"; receiptId?: string };

export interface AgentRuntime<TContext = unknown> {
  readonly governance: AgentGovernance;
  readonly registry: CapabilityRegistry;
  readonly approvals: RuntimeApprovals;
  /** Standing grants: issue ahead of time, list, get, revoke (SI-13, docs/guides/standing-grants.md). */
  readonly grants: RuntimeGrants;
  invoke<O = unknown>(id: string, input: unknown, options: ExecutionOptions<TContext>): Promise<ExecutionResult<O>>;
  describe(surface: ExposureSurface, options: DescribeOptions<TContext>): Promise<CapabilityDescriptor[]>;
  resume<O = unknown>(approvalId: string, options: ResumeOptions<TContext>): Promise<ExecutionResult<O>>;
  /**
   * Waits for every best-effort audit write and tracked work to settle, approval notifications (`approvals.notify`)
   * still queued or being delivered included, so tests and shutdown can wait for them; rejects with
   * `AUDIT_UNAVAILABLE` when a write failed since the last drain or `timeoutMs` (default 5 000) passed.
   */
  drainAudit(options?: { timeoutMs?: number }): Promise<void>;
}
