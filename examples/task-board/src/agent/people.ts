import type { Actor } from "@orpc-agent/core";
import type { AppContext } from "../api/context.js";
import type { Store } from "../domain/store.js";

// Who signs in. In production these come from the app's session or token verification, never from a model.

export const ada: Actor = { id: "u_ada", kind: "user", displayName: "Ada" };
export const ben: Actor = { id: "u_ben", kind: "user", displayName: "Ben" };
export const root: Actor = { id: "u_root", kind: "user", displayName: "Root (administrator)" };

export const people: Record<string, Actor> = { u_ada: ada, u_ben: ben, u_root: root };
const roles: Record<string, AppContext["user"]["role"]> = { u_root: "admin" };

export const nameOf = (id: string): string => people[id]?.displayName ?? id;

/** The oRPC context of a signed-in person. */
export function contextFor(store: Store, actorId: string): AppContext {
  return { store, user: { id: actorId, role: roles[actorId] ?? "member" } };
}
