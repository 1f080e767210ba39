import type { AgentPolicy } from "./types.js";

/** Structural check shared by meta validation and defineGovernance (core.md §2.2, §4). */
export function isAgentPolicy(value: unknown): value is AgentPolicy {
  if (typeof value !== "object" || value === null) return false;
  const policy = value as { name?: unknown; phases?: unknown; evaluate?: unknown };
  return typeof policy.name === "string" && Array.isArray(policy.phases) && typeof policy.evaluate === "function";
}
