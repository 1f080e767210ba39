import { ConfigurationError } from "@orpc-agent/core/adapter";
import type { AgentGovernance } from "@orpc-agent/core";
import { rebuildGovernance, reconstructProcedure } from "./rebuild-governance.js";

/**
 * A handler stub installed in place of a capability's oRPC handler. It receives the procedure's own handler
 * arguments: the parsed input, the context after middleware (including `agent`), the signal and `errors`.
 */
export type HandlerOverride = (opts: { input: unknown; context: any; signal?: AbortSignal; errors: any }) => unknown | Promise<unknown>;

/**
 * Replaces only handlers; meta, schemas and middleware stay, so governance and middleware run as in production.
 * Unknown ids are a construction error: a stub that never runs would make a test pass for the wrong reason.
 */
export function applyHandlerOverrides(governance: AgentGovernance, overrides: Record<string, HandlerOverride>): AgentGovernance {
  if (typeof overrides !== "object" || overrides === null || Array.isArray(overrides)) {
    throw new ConfigurationError("createAgentTestRuntime: overrides must be an object of handler functions keyed by capability id.");
  }
  const ids = Object.keys(overrides);
  if (ids.length === 0) return governance;
  for (const id of ids) {
    if (governance.registry.get(id) === undefined) {
      const known = governance.registry.ids().join(", ") || "(none)";
      throw new ConfigurationError(`createAgentTestRuntime: overrides names "${id}", which is not a capability of the registry. Known ids: ${known}.`);
    }
    if (typeof overrides[id] !== "function") throw new ConfigurationError(`createAgentTestRuntime: overrides["${id}"] must be a handler function.`);
  }
  return rebuildGovernance(governance, (capability) =>
    Object.hasOwn(overrides, capability.id)
      ? reconstructProcedure(capability.procedure, { handler: overrides[capability.id] as never })
      : capability.procedure,
  );
}
