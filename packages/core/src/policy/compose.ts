import { allow } from "./decisions.js";
import { isPolicyDecision } from "./is-decision.js";
import { isAgentPolicy } from "./is-policy.js";
import { pinPolicy } from "./pin-policy.js";
import { policyScopeAdmitsActor, policyScopeMatches } from "./scope.js";
import type { AgentPolicy, PolicyDecision, PolicyRequest } from "../capability/types.js";

// Module-private, so only composePolicies can mark a composite; non-enumerable, so it stays out of sight.
const MEMBERS = Symbol("orpc-agent.composedPolicies");

type Composite = AgentPolicy & { readonly [MEMBERS]: readonly AgentPolicy[] };

// Combination precedence, strongest last (docs/architecture/spec/core.md#core-3-1 step 4; errors throw before this applies).
const PRECEDENCE: readonly PolicyDecision["type"][] = ["allow", "require-approval", "hide", "deny"];

/**
 * Packages policies into one without hiding them: the runtime and the manifest flatten it back,
 * so every member is scoped, evaluated and audited under its own name (docs/architecture/spec/core.md#core-3).
 *
 * @example
 * import { composePolicies, defineGovernance, type AgentPolicy, type CapabilityRegistry } from "@orpc-agent/core";
 * declare const registry: CapabilityRegistry, refundLimit: AgentPolicy, businessHours: AgentPolicy;
 * const finance = composePolicies(refundLimit, businessHours);
 * defineGovernance({ registry, policies: [finance] });
 */
export function composePolicies(...policies: AgentPolicy[]): AgentPolicy {
  if (policies.length === 0) throw new TypeError("composePolicies(...policies): give at least one policy.");
  policies.forEach((policy, index) => {
    if (!isAgentPolicy(policy)) {
      throw new TypeError(`composePolicies: argument ${index} is not a policy { name, phases, evaluate }; use definePolicy.`);
    }
  });

  const members = Object.freeze(flattenPolicies(policies));
  const phases = Object.freeze([...new Set(members.flatMap((member) => [...member.phases]))]);
  const composite: AgentPolicy = {
    name: `composed(${members.map((member) => member.name).join(",")})`,
    phases,
    evaluate: (req) => evaluateMembers(members, req),
  };
  Object.defineProperty(composite, MEMBERS, { value: members, enumerable: false });
  return Object.freeze(composite);
}

/** Replaces every composite with its members, in order. Used by the runtime and the manifest. */
export function flattenPolicies(policies: readonly AgentPolicy[]): AgentPolicy[] {
  // Members are stored flat, so one level of expansion suffices.
  // Each pinned: governance and the plan sort them by mode once, and must keep seeing that mode (ADR-028).
  return policies.flatMap((policy) => ((policy as Partial<Composite>)[MEMBERS] ?? [policy]).map(pinPolicy));
}

// Direct calls only: applicable members in order, all of them, no deadline, no fail-closed wrapping.
// A member that throws or returns a non-decision makes the composite throw (error outranks everything).
// Among the rest, the strongest stance wins and its first occurrence is returned.
async function evaluateMembers(members: readonly AgentPolicy[], req: PolicyRequest): Promise<PolicyDecision> {
  const decisions: PolicyDecision[] = [];
  let failure: { error: unknown } | undefined;
  for (const member of members) {
    // A shadow member never changes an outcome, here as in the runtime.
    if (member.mode === "shadow" || !applies(member, req)) continue;
    try {
      const decision: unknown = await member.evaluate(req);
      if (!isPolicyDecision(decision)) throw new TypeError(`Policy "${member.name}" returned an invalid decision.`);
      decisions.push(decision);
    } catch (error) {
      failure ??= { error };
    }
  }
  if (failure !== undefined) throw failure.error;

  let winner: PolicyDecision | undefined;
  for (const decision of decisions) {
    if (winner === undefined || PRECEDENCE.indexOf(decision.type) > PRECEDENCE.indexOf(winner.type)) winner = decision;
  }
  return winner ?? allow();
}

function applies(member: AgentPolicy, req: PolicyRequest): boolean {
  return member.phases.includes(req.phase) && policyScopeMatches(member.scope, req.capability, req.surface) && policyScopeAdmitsActor(member.scope, req.actor);
}
