// This package does not list @orpc/server (core resolves its own copy), so the root copy the
// tests import is a different pnpm peer-variant to the type checker. One cast here keeps the
// test files typed; listing "@orpc/server" as a devDependency would make it unnecessary.
import { os as rootOs } from "@orpc/server";
import { agentProcedure } from "@orpc-agent/core";

/** oRPC's `os`, typed as the builder core's `agentProcedure` expects. */
export const os = rootOs as unknown as Parameters<typeof agentProcedure>[0];

/** `agentProcedure(os)` for the tests. */
export const ap = agentProcedure(os);
