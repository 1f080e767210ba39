import { isWellFormedActor, type ExposureSurface } from "../vocabulary/types.js";
import { evaluatePolicyBatch } from "../policy/evaluate-batch.js";
import { forActingAgent } from "./stages/policies.js";
import type { RuntimeState } from "./state.js";
import type { AgentRuntime } from "./types.js";

// Lets the invocation service ask a runtime what `describe` would answer for one capability, without the
// `capabilities.discovered` event a real describe emits. Internal: not exported from the package.
const states = new WeakMap<object, RuntimeState>();

export function registerRuntimeState(runtime: object, state: RuntimeState): void {
  states.set(runtime, state);
}

/**
 * SI-8: would `describe(surface, { actor, context })` list this capability? Unknown, unexposed, a malformed actor or a
 * discovery batch ending in hide, deny or error all answer `false`.
 * @see docs/architecture/decisions.md (ADR "Hidden answers as unknown, before any revealing answer")
 */
export async function isVisibleTo<C>(runtime: AgentRuntime<C>, surface: ExposureSurface, id: string, actor: unknown, context: unknown): Promise<boolean> {
  const state = states.get(runtime);
  if (state === undefined) {
    // A runtime built elsewhere (a wrapper or a test double): ask it the public way.
    try {
      return (await runtime.describe(surface, { actor: actor as never, context: context as C, scope: { ids: [id] } })).some((d) => d.id === id);
    } catch {
      return false;
    }
  }
  const plan = state.plans.get(id);
  if (plan === undefined || !plan.exposed[surface]) return false;
  if (plan.policies.discovery[surface].length === 0) return true;
  if (!isWellFormedActor(actor)) return false;
  const policies = plan.agentScoped ? forActingAgent(plan.policies.discovery[surface], actor) : plan.policies.discovery[surface];
  const request = { phase: "discovery" as const, capability: { id: plan.id, meta: plan.meta }, surface, actor, context, input: undefined };
  const batch = await evaluatePolicyBatch(policies, request, state.defaults.policyTimeoutMs);
  return batch.verdict !== "hide" && batch.verdict !== "deny" && batch.verdict !== "error";
}
