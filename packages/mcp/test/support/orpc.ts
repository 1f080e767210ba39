import { os } from "@orpc/server";
import { agentProcedure } from "@orpc-agent/core";

/** `agentProcedure(os)` for the tests. */
export const ap = agentProcedure(os);
