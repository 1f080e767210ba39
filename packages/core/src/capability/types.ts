import type { AgentPolicy } from "../policy/types.js";
import type { CapabilityError } from "../errors/capability-error.js";

/** Where a capability can be reached from. `direct` is server code; model surfaces are `aiSdk` and `mcp`. */
export type ExposureSurface = "direct" | "aiSdk" | "mcp" | "workflow" | "test";
export type SideEffect = "none" | "read" | "write" | "destructive" | "external";
export type RiskLevel = "low" | "medium" | "high" | "critical";

/** Who asks. Always taken from authenticated transport or app state, never from model output (SI-3). */
export type Actor = {
  id: string;
  kind: "user" | "service" | "automation" | "anonymous";
  displayName?: string;
  /** Application-defined; the runtime never interprets it. */
  attributes?: Record<string, unknown>;
  /**
   * The agent or client acting for this actor (an OAuth client id, a bot's service identity). Set by adapters from
   * transport authentication or by the host's options, never from model input (SI-3).
   */
  via?: ActingAgent;
};

/** The acting agent recorded beside the actor: who carried the request, not who asked. */
export type ActingAgent = { id: string; displayName?: string };

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
  };
  redact?: { output?: (output: unknown) => unknown; approvalInput?: (input: unknown) => unknown };
  policies?: AgentPolicy[];
  discovery?: "discoverable" | "contextual";
  adapters?: {
    aiSdk?: { toolName?: string };
    /** `scopes`: OAuth scopes a `tools/call` needs on the MCP endpoint (`403 insufficient_scope` otherwise, for step-up). */
    mcp?: { toolName?: string; annotations?: MCPToolAnnotations; scopes?: string[] };
  };
};

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
};

export const EXPOSURE_SURFACES: readonly ExposureSurface[] = ["direct", "aiSdk", "mcp", "workflow", "test"];
export const SIDE_EFFECTS: readonly SideEffect[] = ["none", "read", "write", "destructive", "external"];
export const RISK_LEVELS: readonly RiskLevel[] = ["low", "medium", "high", "critical"];
export const ACTOR_KINDS: readonly Actor["kind"][] = ["user", "service", "automation", "anonymous"];
export const MODEL_SURFACES: readonly ExposureSurface[] = ["aiSdk", "mcp"];

export function isWriteLike(sideEffect: SideEffect): boolean {
  return sideEffect === "write" || sideEffect === "destructive" || sideEffect === "external";
}

export function isExposureSurface(value: unknown): value is ExposureSurface {
  return typeof value === "string" && (EXPOSURE_SURFACES as readonly string[]).includes(value);
}

/** A well-formed actor: object, non-empty string id, valid kind. docs/architecture/spec/core.md#core-1 */
export function isWellFormedActor(value: unknown): value is Actor {
  if (typeof value !== "object" || value === null) return false;
  const a = value as { id?: unknown; kind?: unknown };
  return typeof a.id === "string" && a.id.length > 0 && (ACTOR_KINDS as readonly unknown[]).includes(a.kind) && isAbsentOrActingAgent((value as { via?: unknown }).via);
}

/** `via` is optional; when present it must name an agent, or nobody can tell who acted (fail closed). */
function isAbsentOrActingAgent(via: unknown): boolean {
  if (via === undefined) return true;
  if (typeof via !== "object" || via === null) return false;
  const v = via as { id?: unknown; displayName?: unknown };
  return typeof v.id === "string" && v.id.length > 0 && (v.displayName === undefined || typeof v.displayName === "string");
}
