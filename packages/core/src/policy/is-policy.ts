import type { AgentPolicy } from "../capability/types.js";

/** Structural check shared by meta validation and defineGovernance (docs/architecture/spec/core.md#core-2-2, docs/architecture/spec/core.md#core-4). */
export function isAgentPolicy(value: unknown): value is AgentPolicy {
  if (typeof value !== "object" || value === null) return false;
  const policy = value as { name?: unknown; phases?: unknown; evaluate?: unknown; mode?: unknown };
  return typeof policy.name === "string" && Array.isArray(policy.phases) && typeof policy.evaluate === "function" && isPolicyModeValue(policy.mode);
}

/** An unknown mode (say `"dryrun"`) must never fall back to enforcing or to shadowing silently. */
export function isPolicyModeValue(mode: unknown): boolean {
  return mode === undefined || mode === "enforce" || mode === "shadow";
}

/** Shadow policies are evaluated and audited, never obeyed. */
export function isShadowPolicy(policy: AgentPolicy): boolean {
  return policy.mode === "shadow";
}
