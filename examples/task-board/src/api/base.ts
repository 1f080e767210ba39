import { ORPCError, os } from "@orpc/server";
import { agentProcedure } from "@orpc-agent/core";
import type { AppContext } from "./context.js";

/** Ordinary oRPC middleware: every procedure needs a signed-in user, on the agent path as on any other. */
const requireUser = os.$context<AppContext>().middleware(({ context, next }) => {
  if (!context.user) throw new ORPCError("UNAUTHORIZED", { message: "Sign in first." });
  return next();
});

/** The app's builder: oRPC's, with agent metadata typed in `.meta(agentMeta(...))`. */
export const base = agentProcedure(os.$context<AppContext>().use(requireUser));
