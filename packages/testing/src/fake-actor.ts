import type { Actor } from "@orpc-agent/core";

/**
 * A well-formed actor for tests: `{ id: "test-user", kind: "user" }`, with any field replaced.
 *
 * @example
 * import { fakeActor } from "@orpc-agent/testing";
 * const manager = fakeActor({ id: "u_manager", attributes: { role: "manager" } });
 */
export function fakeActor(partial: Partial<Actor> = {}): Actor {
  return { id: "test-user", kind: "user", ...partial };
}
