import type { AgentGovernance } from "@orpc-agent/core";
import { rebuildGovernance, reconstructProcedure } from "./rebuild-governance.js";

/**
 * The governance with every capability's `meta.agent.timeoutMs` forced, backing the test-only per-call
 * `timeoutMs` (docs/architecture/spec/adapters.md#adapters-4). Going through meta keeps the runtime's own timer and classification in charge.
 */
export function forceTimeout(governance: AgentGovernance, timeoutMs: number): AgentGovernance {
  return rebuildGovernance(governance, (capability) => {
    const meta = capability.procedure["~orpc"].meta as { agent: object };
    return reconstructProcedure(capability.procedure, { meta: { ...meta, agent: { ...meta.agent, timeoutMs } } });
  });
}
