import type { AgentInvocationInfo } from "../../capability/types.js";

/**
 * Stage 11 context: a new object with the supplied context's prototype and own enumerable properties, plus `agent`
 * (docs/architecture/spec/core.md#core-6-1). The caller's object is never mutated; an application key `agent` is shadowed.
 */
export function buildCallContext(context: unknown, agent: AgentInvocationInfo): Record<string, unknown> {
  if (typeof context !== "object" || context === null) return { agent };
  const proto = Object.getPrototypeOf(context);
  if (proto === Object.prototype) return { ...(context as Record<string, unknown>), agent };
  return Object.assign(Object.create(proto), context, { agent });
}
