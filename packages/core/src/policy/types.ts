import type { AgentMeta, Actor, ExposureSurface, RiskLevel, SideEffect } from "../capability/types.js";
import type { ApprovalRecord } from "../approvals/types.js";

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
