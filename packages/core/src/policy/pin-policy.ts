import type { AgentPolicy } from "../capability/types.js";

/**
 * A policy read once into a frozen object of data properties, so whether it is enforced or shadow (and its name,
 * phases and scope) cannot change after governance has sorted it: a hand-built policy switched to `mode: "shadow"`
 * later, or a `mode` getter answering differently per read, would otherwise leave enforcement while still listed as
 * enforced (ADR-028). definePolicy's frozen policies are already pinned and are returned as they are.
 */
export function pinPolicy(policy: AgentPolicy): AgentPolicy {
  if (isPinned(policy)) return policy;
  // Own fields kept, so an `evaluate` reading `this` still finds them; each getter is read once, by the spread.
  const pinned = { ...policy } as { -readonly [K in keyof AgentPolicy]: AgentPolicy[K] };
  // A class-based policy's fields may live on its prototype: read each of those once too.
  for (const key of ["name", "phases", "scope", "mode", "evaluate"] as const) {
    if (Object.hasOwn(pinned, key)) continue;
    const value: unknown = policy[key];
    if (value !== undefined) (pinned as Record<string, unknown>)[key] = value;
  }
  if (Array.isArray(pinned.phases)) pinned.phases = Object.freeze([...pinned.phases]);
  return Object.freeze(pinned);
}

function isPinned(policy: object): boolean {
  if (!Object.isFrozen(policy)) return false;
  const phases = (policy as { phases?: unknown }).phases;
  if (Array.isArray(phases) && !Object.isFrozen(phases)) return false;
  return Object.values(Object.getOwnPropertyDescriptors(policy)).every((descriptor) => "value" in descriptor);
}
