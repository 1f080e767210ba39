import { os } from "@orpc/server";
import { createCapabilityRegistry } from "../../src/registry/create-registry.js";
import type { CapabilityDefs } from "../../src/registry/types.js";
import { agentMeta, type AgentMeta } from "../../src/index.js";

// `agentMeta` is handed anything (cast) so tests can build the malformed procedures users might write.
const looseBuilder = os;

/** A valid, model-exposed read capability's meta. */
export const validAgent = Object.freeze({
  description: "Look up an order",
  expose: Object.freeze({ aiSdk: true, mcp: true }),
  sideEffect: "read",
  risk: "low",
});

/** A real oRPC procedure (no input schema) whose `meta.agent` is `agent`, whatever it is. */
export function procedureWith(agent: unknown) {
  return looseBuilder.meta(agentMeta(agent as AgentMeta)).handler(() => "ok");
}

/** A real oRPC procedure without agent meta. */
export function plainProcedure() {
  return os.handler(() => "plain");
}

/** The `problems` of the registry build error; fails the test when the build succeeds. */
export function buildProblems(defs: unknown): readonly string[] {
  try {
    createCapabilityRegistry(defs as CapabilityDefs);
  } catch (error) {
    const problems = (error as { problems?: readonly string[] }).problems;
    if (!Array.isArray(problems)) throw error;
    return problems;
  }
  throw new Error("expected createCapabilityRegistry to fail");
}

/** The registry build error itself; fails the test when the build succeeds. */
export function buildError(defs: unknown): Error & { problems: readonly string[] } {
  try {
    createCapabilityRegistry(defs as CapabilityDefs);
  } catch (error) {
    return error as Error & { problems: readonly string[] };
  }
  throw new Error("expected createCapabilityRegistry to fail");
}
