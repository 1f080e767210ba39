import type { GrantRecord, GrantTerms } from "../../approvals/grants/types.js";
import { approvalDefinition } from "../approvals/definition.js";
import type { CapabilityPlan } from "../plan.js";
import type { RuntimeState } from "../state.js";

/**
 * Whether the capability still stands as the grant was issued for it (SI-13): known, exposed on the grant's surface,
 * opted into grants with caps the grant still fits (a narrowed cap voids the grants above it), and with the same
 * approval definition digest on that surface.
 */
export async function stillBinds(rt: RuntimeState, grant: GrantTerms): Promise<boolean> {
  const plan = bindablePlan(rt, grant);
  if (plan === undefined) return false;
  const { digest } = await approvalDefinition(plan, grant.surface);
  remember(plan, grant.surface, digest);
  return digest === grant.definitionDigest;
}

/**
 * `stillBinds` answered in the same tick, or `undefined` while the capability's definition digest on that surface has
 * not been computed yet (the first covered call of a runtime awaits it once through `stillBinds`).
 */
export function stillBindsNow(rt: RuntimeState, grant: GrantTerms): boolean | undefined {
  const plan = bindablePlan(rt, grant);
  if (plan === undefined) return false;
  const digest = digests.get(plan)?.get(grant.surface);
  return digest === undefined ? undefined : digest === grant.definitionDigest;
}

/** The capability's plan when everything but the definition digest still binds the grant. */
function bindablePlan(rt: RuntimeState, grant: GrantTerms): CapabilityPlan | undefined {
  const plan = rt.plans.get(grant.capabilityId);
  const caps = plan?.meta.approval?.grants;
  if (plan === undefined || caps === undefined || !plan.exposed[grant.surface]) return undefined;
  const lifetime = grant.expiresAt.getTime() - grant.issuedAt.getTime();
  if (!caps.scopes.includes(grant.scope) || grant.uses > caps.maxUses || !(lifetime <= caps.maxTtlMs)) return undefined;
  return plan;
}

// Digests already computed, per plan and surface: a plan is fixed for the runtime's life, and so is its digest.
const digests = new WeakMap<CapabilityPlan, Map<GrantTerms["surface"], string>>();

function remember(plan: CapabilityPlan, surface: GrantTerms["surface"], digest: string): void {
  let bySurface = digests.get(plan);
  if (bySurface === undefined) digests.set(plan, (bySurface = new Map()));
  bySurface.set(surface, digest);
}

/** A stored grant as `runtime.grants` shows it: `void` once its capability changed, unless it was revoked first. */
export async function grantView(rt: RuntimeState, record: GrantRecord): Promise<GrantRecord> {
  if (record.status === "revoked" || (await stillBinds(rt, record))) return record;
  return { ...record, status: "void" };
}
