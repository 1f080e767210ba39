import type { Actor } from "@orpc-agent/core";
import type { AppContext } from "../api/context.js";

// Who signs in to this app. In production these come from your session or token verification, never from a model.

export const dana: Actor = { id: "u_dana", kind: "user", displayName: "Dana (support)" };
export const priya: Actor = { id: "u_priya", kind: "user", displayName: "Priya (support manager)" };
export const root: Actor = { id: "u_root", kind: "user", displayName: "Root (administrator)" };
export const sam: Actor = { id: "u_sam", kind: "user", displayName: "Sam (data protection)" };

export const roles: Record<string, AppContext["user"]["role"]> = { u_dana: "support", u_priya: "manager", u_root: "admin", u_sam: "manager" };
export const people: Record<string, Actor> = { u_dana: dana, u_priya: priya, u_root: root, u_sam: sam };

/** Bearer tokens for the MCP endpoint of the demo; a real app verifies JWTs or opaque tokens here. */
export const mcpTokens: Record<string, Actor> = { "demo-token-dana": dana, "demo-token-root": root };
