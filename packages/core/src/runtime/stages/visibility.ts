import { isWellFormedActor, type Actor } from "../../vocabulary/types.js";
import { isPromiseLike } from "../../internal/promise.js";
import type { Execution } from "../execution.js";
import { runPolicyBatch } from "./policies.js";

/**
 * SI-8: may this caller learn that the capability exists? Asked only before an answer that would reveal it without
 * executing it (INPUT_INVALID at stage 5, UNAUTHENTICATED at stage 6): the capability is visible exactly when
 * `describe` would list it for this actor on this surface. Without a well-formed actor, a capability that any discovery
 * policy could hide is treated as hidden.
 * @see docs/architecture/decisions.md (ADR "Hidden answers as unknown, before any revealing answer")
 */
export function isConcealedFrom(exec: Execution, actor: unknown, context: unknown): boolean | Promise<boolean> {
  const policies = exec.plan!.policies.discovery[exec.surface];
  if (policies.length === 0) return false;
  if (!isWellFormedActor(actor)) return true;
  const batch = runPolicyBatch(exec, "discovery", policies, { actor: actor as Actor, context, input: undefined });
  const excluded = (verdict: string) => verdict === "hide" || verdict === "deny" || verdict === "error";
  return isPromiseLike(batch) ? batch.then((b) => excluded(b.verdict)) : excluded(batch.verdict);
}
