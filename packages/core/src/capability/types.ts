import type { CapabilityError } from "../errors/capability-error.js";
import type { ApprovalRecord } from "../approvals/types.js";
import type { GrantCaps } from "../approvals/grants/types.js";
import type { ApprovalEscalationStep } from "../approvals/notify/escalation.js";
import type { Actor, ExposureSurface, RiskLevel, SideEffect } from "../vocabulary/types.js";

// A capability's metadata names its policies (`policies: AgentPolicy[]`) and every policy reads that metadata
// (`req.capability.meta`): the two types are one recursive group, declared here together with the rest of the
// policy contract. policy/ builds policies and evaluates them on top of this (docs/architecture/packages.md).

/** Structural mirror of MCP ToolAnnotations (core imports no protocol SDK). */
export type MCPToolAnnotations = {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
};

/** @deprecated Use MCPToolAnnotations (acronyms are upper-case across the public API). */
export type McpToolAnnotations = MCPToolAnnotations;

/** Agent metadata, placed under `.meta({ agent })` of an oRPC procedure. docs/architecture/spec/core.md#core-1-1 */
export type AgentMeta = {
  description: string;
  expose: Partial<Record<ExposureSurface, boolean>>;
  sideEffect: SideEffect;
  risk: RiskLevel;
  tags?: string[];
  timeoutMs?: number;
  retry?: { maxAttempts: number; backoffMs?: number; retryOn?: (error: CapabilityError) => boolean };
  idempotent?: boolean;
  approval?: {
    required?: boolean;
    type?: string;
    expiresInMs?: number;
    /** Distinct approvers (never the requester) a request for this capability needs; integer >= 1, default 1. */
    quorum?: number;
    /**
     * Opts the capability into standing grants (SI-13) and caps what any grant for it may allow. Absent: no grant
     * covers it. docs/guides/standing-grants.md
     */
    grants?: GrantCaps;
    /**
     * Whom to tell, and when, while a request stays pending: step i is due `afterMs` after the request (before its
     * expiry) and is sent once, as `approval.escalated`, by `runtime.approvals.sweep()`. Who is told widens nothing an
     * agent may do, so it is left out of the governance snapshot. docs/guides/notifying-approvers.md#escalation-and-expiry-warnings
     */
    escalate?: readonly ApprovalEscalationStep[];
  };
  redact?: { output?: (output: unknown) => unknown; approvalInput?: (input: unknown) => unknown };
  policies?: AgentPolicy[];
  discovery?: "discoverable" | "contextual";
  /**
   * Bounds of a streaming capability (an event-iterator output); refused on any other. `idleTimeoutMs`: the most the
   * handler may take to yield its next event (time the caller spends consuming an event does not count);
   * `maxEvents`: events past this many end the stream as failed. Defaults: `defaults.streamIdleTimeoutMs`,
   * `defaults.streamMaxEvents` of the runtime. `timeoutMs` covers the whole stream.
   */
  stream?: { idleTimeoutMs?: number; maxEvents?: number };
  adapters?: {
    aiSdk?: { toolName?: string };
    /** `scopes`: OAuth scopes a `tools/call` needs on the MCP endpoint (`403 insufficient_scope` otherwise, for step-up). */
    mcp?: { toolName?: string; annotations?: MCPToolAnnotations; scopes?: string[] };
  };
};

/**
 * One progress report of a capability in flight (the MCP progress shape): `progress` increases on every report,
 * `total` when known, `message` a short human-readable line.
 */
export type ProgressUpdate = { progress: number; total?: number; message?: string };

/** `ctx.agent` inside the procedure call made by the runtime. docs/architecture/spec/core.md#core-1-2 */
export type AgentInvocationInfo = {
  executionId: string;
  capabilityId: string;
  surface: ExposureSurface;
  actor: Actor;
  approval?: { id: string; approver: Actor };
  correlationId?: string;
  idempotencyKey: string;
  /** Set when the invocation service runs the call: the caller's invocation id, the key of its journal row. */
  invocationId?: string;
  /**
   * Reports progress to the caller, if it asked (`onProgress`); otherwise does nothing. Never throws and never waits:
   * the runtime validates, throttles and delivers updates (an invalid one, or one not above the last, is dropped).
   */
  reportProgress(update: ProgressUpdate): void;
};

// The policy contract (docs/architecture/spec/core.md#core-3).

export type PolicyPhase = "discovery" | "invocation" | "execution";

export type PolicyDecision =
  | { type: "allow"; metadata?: Record<string, unknown> }
  | { type: "deny"; code?: string; message?: string }
  | { type: "hide" }
  | { type: "require-approval"; reason: string; approvalType?: string; expiresInMs?: number; quorum?: number };

export type PolicyRequest = {
  phase: PolicyPhase;
  capability: { id: string; meta: AgentMeta };
  surface: ExposureSurface;
  actor: Actor;
  /** The application context as passed, without an `agent` key. */
  context: unknown;
  /** The validated input; undefined at discovery. */
  input?: unknown;
  /** Present for resumed executions. */
  approval?: ApprovalRecord;
};

export type PolicyScope = {
  capabilities?: {
    ids?: readonly string[];
    tags?: readonly string[];
    sideEffects?: readonly SideEffect[];
    risks?: readonly RiskLevel[];
  };
  surfaces?: readonly ExposureSurface[];
  /** Acting-agent ids (`actor.via.id`); a request without an acting agent matches no `via` selector. */
  via?: readonly string[];
};

/** `"shadow"`: evaluated beside the enforced policies, never changing an outcome; divergences are audited. */
export type PolicyMode = "enforce" | "shadow";

export type AgentPolicy = {
  name: string;
  phases: readonly PolicyPhase[];
  scope?: PolicyScope;
  /** Default `"enforce"`. */
  mode?: PolicyMode;
  evaluate(req: PolicyRequest): PolicyDecision | Promise<PolicyDecision>;
};

export type PolicyDecisionRecord = {
  policy: string;
  type: PolicyDecision["type"] | "error";
  metadata?: Record<string, unknown>;
};

export const POLICY_PHASES: readonly PolicyPhase[] = ["discovery", "invocation", "execution"];
