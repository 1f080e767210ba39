import type { SpanAttributes } from "@orpc-agent/core";

export const ACTOR_ID_ATTRIBUTE = "orpc_agent.actor_id";

/**
 * Core offers the actor id on the root span and leaves keeping it to the adapter (docs/architecture/spec/core.md#core-12);
 * this one drops it unless the app opted in (docs/architecture/spec/adapters.md#adapters-6). Core's object is never mutated.
 */
export function withoutActorId(attributes: SpanAttributes): SpanAttributes {
  if (!Object.hasOwn(attributes, ACTOR_ID_ATTRIBUTE)) return attributes;
  const { [ACTOR_ID_ATTRIBUTE]: _dropped, ...rest } = attributes;
  return rest;
}
