import { isWriteLike, MODEL_SURFACES } from "../vocabulary/types.js";
import type { AgentGovernance } from "../governance/types.js";
import type { CapabilityPlan } from "./plan.js";

type WarningKind = "W1" | "W2" | "W3" | "W4";

// Each kind fires at most once per governance object per process (docs/architecture/spec/core.md#core-5).
const fired = new WeakMap<AgentGovernance, Set<WarningKind>>();

function warnOnce(governance: AgentGovernance, kind: WarningKind, ids: string[], message: string): void {
  let kinds = fired.get(governance);
  if (!kinds) fired.set(governance, (kinds = new Set()));
  if (kinds.has(kind)) return;
  kinds.add(kind);
  const named = ids.slice(0, 3).join(", ") + (ids.length > 3 ? ` (+${ids.length - 3} more)` : "");
  console.warn(`[orpc-agent] ${message.replace("%s", named)}`);
}

const onModelSurface = (plan: CapabilityPlan) => MODEL_SURFACES.some((s) => plan.exposed[s]);

/** Startup warnings W1..W3: never fatal, silenced only by an explicit choice (ADR-014 §1, ADR-016 §9). */
export function emitStartupWarnings(
  governance: AgentGovernance,
  plans: readonly CapabilityPlan[],
  config: { hasCoordinator: boolean; unsealedStore?: boolean; hasHandler: boolean; hasSink: boolean },
): void {
  const noApprovals = !config.hasCoordinator && !config.hasHandler;
  let w1 = false;
  if (noApprovals) {
    const gated = plans.filter((p) => p.approvalRequired).map((p) => p.id);
    if (gated.length > 0) {
      w1 = true;
      warnOnce(
        governance,
        "W1",
        gated,
        "approvals are required by %s, but no approvals.coordinator or approvals.handler is configured: approvals live in process memory and are lost on restart. Pass approvals: { coordinator } (createInMemoryApprovalCoordinator() to accept that) or a handler.",
      );
    }
  }
  if (noApprovals && !w1) {
    const candidateIds = new Set<string>();
    for (const entry of governance.manifest) {
      // A shadow policy never suspends a call, so it creates no approvals to lose.
      if (entry.mode === "shadow") continue;
      if (entry.phases.includes("invocation") || entry.phases.includes("execution")) for (const id of entry.capabilities) candidateIds.add(id);
    }
    const gatedByPolicy = plans
      .filter((p) => isWriteLike(p.meta.sideEffect) && onModelSurface(p))
      .filter((p) => candidateIds.has(p.id) || (p.meta.policies ?? []).some((policy) => policy.mode !== "shadow" && policy.phases.includes("invocation") || policy.phases.includes("execution")))
      .map((p) => p.id);
    if (gatedByPolicy.length > 0) {
      warnOnce(
        governance,
        "W2",
        gatedByPolicy,
        "policies may require approval for the writes %s, but no approvals.coordinator or approvals.handler is configured: such approvals would live in process memory only. Configure approvals: { coordinator } or a handler.",
      );
    }
  }
  if (!config.hasSink) {
    const writes = plans.filter((p) => isWriteLike(p.meta.sideEffect) && onModelSurface(p)).map((p) => p.id);
    if (writes.length > 0) {
      warnOnce(
        governance,
        "W3",
        writes,
        "no audit sink is configured, yet models can reach the writes %s: nothing will record what agents did. Pass audit: sink (or audit: () => {} to record nothing deliberately).",
      );
    }
  }
  if (config.unsealedStore) {
    const gated = plans.filter((p) => p.approvalRequired || isWriteLike(p.meta.sideEffect)).map((p) => p.id);
    if (gated.length > 0) {
      warnOnce(
        governance,
        "W4",
        gated,
        "approvals for %s are kept by a persistent coordinator without approvals.seal: anyone who can write its table can mint or edit an approval. Pass approvals: { seal: { keys: [{ id, secret }] } }, or seal: false to trust the store deliberately.",
      );
    }
  }
}
