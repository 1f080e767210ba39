// The wire contract of a remote capability authority (docs/architecture/spec/distributed.md#distributed-1). Types only: a browser bundle
// of this entry holds nothing. Core's own unions are re-declared here, not imported, because core's main
// entry pulls @orpc/server; test/client/types.test-d.ts holds each copy equal to core's.

export type SideEffect = "none" | "read" | "write" | "destructive" | "external";
export type RiskLevel = "low" | "medium" | "high" | "critical";
export type ApprovalStatus = "pending" | "approved" | "rejected" | "expired" | "cancelled" | "consumed";
export type JsonSchemaObject = { [key: string]: unknown };
export type ErrorCode =
  | "CAPABILITY_NOT_FOUND"
  | "INPUT_INVALID"
  | "UNAUTHENTICATED"
  | "FORBIDDEN"
  | "POLICY_DENIED"
  | "POLICY_FAILED"
  | "APPROVAL_REQUIRED"
  | "APPROVAL_PENDING"
  | "APPROVAL_REJECTED"
  | "APPROVAL_EXPIRED"
  | "APPROVAL_CONSUMED"
  | "APPROVAL_ALREADY_DECIDED"
  | "APPROVAL_INPUT_MISMATCH"
  | "APPROVAL_SELF_APPROVAL"
  | "APPROVAL_UNSERIALIZABLE_INPUT"
  | "APPROVAL_RESUME_MISMATCH"
  | "APPROVAL_LINK_INVALID"
  | "APPROVAL_LINK_EXPIRED"
  | "APPROVAL_LINKS_DISABLED"
  | "APPROVAL_SWEEP_UNSUPPORTED"
  | "GRANT_NOT_ALLOWED"
  | "GRANT_EXCEEDS_CAPS"
  | "GRANT_ISSUERS_INSUFFICIENT"
  | "GRANT_NOT_FOUND"
  | "EXECUTION_FAILED"
  | "OUTPUT_INVALID"
  | "TIMEOUT"
  | "CANCELLED"
  | "AUDIT_UNAVAILABLE"
  | "ADAPTER_ERROR"
  | "INTERNAL_ERROR";

export type RemoteOperation = "describe" | "invoke" | "resume" | "reconcile";
/** The surfaces a network caller can be served on; `direct` and `test` are in-process by definition. */
export type RemoteSurface = "aiSdk" | "mcp" | "workflow";

export type RemoteCallOptions = { signal?: AbortSignal; timeoutMs?: number };

/** Core's `ProgressUpdate`: `progress` increases on every report, `total` when known, `message` a short line. */
export type ProgressUpdate = { progress: number; total?: number; message?: string };

/**
 * Options of `invoke` and `resume`. With `onEvent` or `onProgress`, the call streams over oRPC's event-iterator
 * transport: each event of a streaming capability (redacted) reaches `onEvent` as it arrives, the next one read only
 * once its promise settles; progress reaches `onProgress`. The call still resolves with the final envelope; a replay
 * of a settled invocation id answers it without the events. `timeoutMs` covers the whole stream.
 */
export type RemoteExecuteOptions = RemoteCallOptions & {
  /** A throw or rejection stops reading: the call resolves to `outcome-unknown` (`aborted`); reconcile it. */
  onEvent?: (event: unknown) => void | Promise<void>;
  /** What it throws is ignored. Never called after the call resolved. */
  onProgress?: (update: ProgressUpdate) => void;
};

/** ADR-017 scope, verbatim: narrows the listing, never authorizes. */
export type DescribeRequest = { scope?: { tags?: string[]; ids?: string[] } };

export type DescribeResponse = {
  protocol: 1;
  namespace: string;
  surface: RemoteSurface;
  /** For cache skipping only: compare, never parse. */
  catalogDigest: string;
  /** Registry order. */
  descriptors: RemoteDescriptor[];
};

/** A capability descriptor as the server resolved it for the calling actor (docs/architecture/spec/distributed.md#distributed-2). */
export type RemoteDescriptor = {
  id: string;
  description: string;
  inputSchema: JsonSchemaObject;
  sideEffect: SideEffect;
  risk: RiskLevel;
  tags: string[];
  requiresApproval?: true;
  idempotent: boolean;
  toolNames: { aiSdk: string; mcp: string };
  /** Equality only; a precondition at most, never a permission (D-5). */
  digest: string;
  /** Present iff the capability is presented only in context; never in an unbound tool list (docs/architecture/spec/distributed.md#distributed-2-3). */
  contextual?: true;
  /** Present iff the capability streams (an event-iterator output): pass `onEvent` to receive its events. */
  streaming?: true;
};

export type InvokeRequest = {
  capabilityId: string;
  input: unknown;
  /** Required; `/^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/`, committed by the caller before sending. */
  invocationId: string;
  /** A label of at most 200 printable characters. */
  correlationId?: string;
  /** Refuse with `DESCRIPTOR_STALE` when the capability changed since this digest was read. */
  expectedDigest?: string;
};
export type ResumeRequest = { invocationId: string; approvalId: string };

/** What the streaming procedures deliver: `events` of a streaming capability, `progress` of any; neither unless asked. */
export type StreamDelivery = { events?: boolean; progress?: boolean };
/** The body of the router's `invokeStream` procedure. */
export type InvokeStreamRequest = InvokeRequest & StreamDelivery;
/** The body of the router's `resumeStream` procedure. */
export type ResumeStreamRequest = ResumeRequest & StreamDelivery;

/**
 * One frame of a streaming procedure's event iterator; the iterator's return value is the `RemoteExecutionResult`.
 * Frames of a type a client does not know are skipped.
 */
export type RemoteStreamFrame = { type: "event"; event: unknown } | ({ type: "progress" } & ProgressUpdate);
export type ReconcileRequest = { invocationId: string };

export type RemoteErrorCode = ErrorCode | "INVOCATION_CONFLICT" | "DESCRIPTOR_STALE";
/** Core's model serialization (SI-9), plus the two codes only the invocation service produces. */
export type RemoteError = { code: RemoteErrorCode; message: string; retryable: boolean; details?: unknown };

export type RemoteApproval = {
  id: string;
  capabilityId: string;
  status: ApprovalStatus;
  reasons: string[];
  types: string[];
  /** ISO-8601. */
  requestedAt: string;
  /** ISO-8601. */
  expiresAt: string;
};

type Envelope = {
  protocol: 1;
  invocationId: string;
  /** The runtime execution; `""` when no execution took place (the request was refused before the runtime). */
  executionId: string;
  /** True when this is the journal's stored answer to an earlier request with the same invocation id. */
  replayed: boolean;
};

export type RemoteExecutionResult<O = unknown> =
  | (Envelope & {
      status: "completed";
      output: O;
      outputWithheld?: true;
      /**
       * A resume an approver approved with changes: RFC 6901 pointers to where the input that ran differs from the one
       * requested, never the values (docs/guides/approvals.md#approve-with-changes). Absent otherwise.
       */
      approvedWithChanges?: { changed: string[] };
    })
  | (Envelope & { status: "approval-required"; approval: RemoteApproval })
  | (Envelope & { status: "failed" | "cancelled"; error: RemoteError; effectStatus?: "unknown" })
  | OutcomeUnknown;

/** Whether the effect happened cannot be said; only `reconcile` and the application's resolution can (D-4). */
export type OutcomeUnknown = {
  protocol: 1;
  status: "outcome-unknown";
  invocationId: string;
  message: string;
  reason:
    | "in-progress"
    | "lease-lapsed"
    | "interrupted"
    | "fenced-out"
    | "transport"
    | "timeout"
    | "aborted"
    | "server-error"
    | "unreadable-response";
};

export type ReconcileResult<O = unknown> = { protocol: 1; invocationId: string } & (
  | { state: "absent" }
  | { state: "pending"; result?: RemoteExecutionResult<O> & { status: "approval-required" } }
  | { state: "claimed"; leaseExpiresAt: string }
  | { state: "settled"; result: RemoteExecutionResult<O> & { status: "completed" | "failed" | "cancelled" } }
  | { state: "unknown"; reason: "lease-lapsed" | "interrupted"; since: string }
);

/** How `describe` and `reconcile` reject; `invoke` and `resume` never reject once a request may have left. */
export type CapabilityClientFailure = Error & {
  name: "CapabilityClientError";
  operation: "describe" | "reconcile";
  code: "UNAUTHENTICATED" | "FORBIDDEN" | "BAD_REQUEST" | "TIMEOUT" | "TRANSPORT" | "PROTOCOL" | "SERVER_ERROR";
  status?: number;
};

/**
 * A remote capability authority. Structural: any object with these four methods is a client.
 *
 * @example
 * import { isOutcomeUnknown, type CapabilityClient } from "@orpc-agent/core/client";
 * declare const client: CapabilityClient, input: { orderId: string }, invocationId: string;
 * const result = await client.invoke({ capabilityId: "orders.refund", input, invocationId });
 * if (isOutcomeUnknown(result)) await client.reconcile({ invocationId });
 */
export interface CapabilityClient {
  describe(req?: DescribeRequest, o?: RemoteCallOptions): Promise<DescribeResponse>;
  invoke<O = unknown>(req: InvokeRequest, o?: RemoteExecuteOptions): Promise<RemoteExecutionResult<O>>;
  resume<O = unknown>(req: ResumeRequest, o?: RemoteExecuteOptions): Promise<RemoteExecutionResult<O>>;
  reconcile<O = unknown>(req: ReconcileRequest, o?: RemoteCallOptions): Promise<ReconcileResult<O>>;
}
