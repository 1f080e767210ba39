import { describeValue } from "../internal/describe-value.js";
import { normalizePolicyScope } from "./scope.js";
import { POLICY_PHASES, type AgentPolicy, type PolicyMode, type PolicyPhase, type PolicyScope } from "../capability/types.js";

export type DefinePolicyOptions = {
  /** Phases the policy takes part in; default `["invocation"]`. */
  phases?: readonly PolicyPhase[];
  /** Which capabilities and surfaces the policy applies to; authoritative (docs/architecture/spec/core.md#core-3, ADR-018). */
  scope?: PolicyScope;
  /**
   * `"shadow"` evaluates the policy beside the enforced ones without ever changing an outcome; whenever its stance
   * differs from the enforced outcome, a `capability.shadow_diverged` event records it. Default `"enforce"`.
   */
  mode?: PolicyMode;
};

const OPTION_KEYS = ["phases", "scope", "mode"];
const DEFAULT_PHASES: readonly PolicyPhase[] = Object.freeze(["invocation"]);

/**
 * Defines a named policy. The result is frozen; its scope is validated and normalized here.
 *
 * @example
 * import { allow, definePolicy, requireApproval } from "@orpc-agent/core";
 * const refundLimit = definePolicy(
 *   "refund-limit",
 *   (req) => ((req.input as { amount: number }).amount > 500 ? requireApproval({ reason: "Large refund" }) : allow()),
 *   { scope: { capabilities: { ids: ["orders.refund"] } } },
 * );
 */
export function definePolicy(
  name: string,
  evaluate: AgentPolicy["evaluate"],
  options?: DefinePolicyOptions,
): AgentPolicy {
  if (typeof name !== "string" || name.length === 0) {
    throw new TypeError("definePolicy(name, evaluate, options?): name must be a non-empty string.");
  }
  if (typeof evaluate !== "function") {
    throw new TypeError(`definePolicy("${name}", evaluate): evaluate must be a function.`);
  }
  if (options !== undefined && (typeof options !== "object" || options === null || Array.isArray(options))) {
    throw new TypeError(`definePolicy("${name}"): options must be an object { phases?, scope?, mode? }.`);
  }
  for (const key of Object.keys(options ?? {})) {
    // A misspelt key (say `scopes`) would otherwise widen the policy silently.
    if (!OPTION_KEYS.includes(key)) {
      throw new TypeError(`definePolicy("${name}"): unknown option "${key}"; allowed: phases, scope, mode.`);
    }
  }

  const phases = options?.phases === undefined ? DEFAULT_PHASES : normalizePhases(name, options.phases);
  const policy: AgentPolicy = { name, phases, evaluate };
  if (options?.scope !== undefined) policy.scope = normalizePolicyScope(options.scope, name);
  const mode: unknown = options?.mode;
  if (mode !== undefined && mode !== "enforce" && mode !== "shadow") {
    throw new TypeError(`definePolicy("${name}"): mode must be "enforce" or "shadow", got ${describeValue(mode)}.`);
  }
  // Only shadow is recorded: an enforced policy keeps the shape it always had.
  if (mode === "shadow") policy.mode = "shadow";
  return Object.freeze(policy);
}

function normalizePhases(name: string, phases: unknown): readonly PolicyPhase[] {
  if (!Array.isArray(phases) || phases.length === 0) {
    throw new TypeError(`definePolicy("${name}"): phases must be a non-empty array of ${POLICY_PHASES.join(", ")}.`);
  }
  for (const phase of phases) {
    if (!(POLICY_PHASES as readonly unknown[]).includes(phase)) {
      throw new TypeError(`definePolicy("${name}"): invalid phase ${describeValue(phase)}; allowed: ${POLICY_PHASES.join(", ")}.`);
    }
  }
  // Deduplicated in the order given (docs/architecture/spec/core.md#core-3, decided here).
  return Object.freeze([...new Set(phases as PolicyPhase[])]);
}
