import { ORPCError, os } from "@orpc/server";
import { agentProcedure } from "@orpc-agent/core";
import type { AppContext } from "./context.js";

/** Ordinary oRPC middleware: every procedure needs a signed-in user. It runs unchanged on the agent path too. */
const requireUser = os.$context<AppContext>().middleware(({ context, next }) => {
  if (!context.user) throw new ORPCError("UNAUTHORIZED", { message: "Sign in first." });
  return next();
});

/**
 * The app's builder: oRPC's, with `context.agent` typed for when an agent calls. Capabilities declare their metadata
 * with `.meta(agentMeta({ ... }))`, which oRPC 1 and 2 both accept (docs/guides/orpc-2.md).
 */
export const base = agentProcedure(os.$context<AppContext>().use(requireUser));
