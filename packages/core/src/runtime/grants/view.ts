import type { GrantRecord, GrantTerms } from "../../approvals/grants/types.js";
import { approvalDefinition } from "../approvals/definition.js";
import type { RuntimeState } from "../state.js";

/**
 * Whether the capability still stands as the grant was issued for it (SI-13): known, exposed on the grant's surface,
 * opted into grants with caps the grant still fits (a narrowed cap voids the grants above it), and with the same
 * approval definition digest on that surface.
 */
export async function stillBinds(rt: RuntimeState, grant: GrantTerms): Promise<boolean> {
  const plan = rt.plans.get(grant.capabilityId);
  const caps = plan?.meta.approval?.grants;
  if (plan === undefined || caps === undefined || !plan.exposed[grant.surface]) return false;
  const lifetime = grant.expiresAt.getTime() - grant.issuedAt.getTime();
  if (!caps.scopes.includes(grant.scope) || grant.uses > caps.maxUses || !(lifetime <= caps.maxTtlMs)) return false;
  return (await approvalDefinition(plan, grant.surface)).digest === grant.definitionDigest;
}

/** A stored grant as `runtime.grants` shows it: `void` once its capability changed, unless it was revoked first. */
export async function grantView(rt: RuntimeState, record: GrantRecord): Promise<GrantRecord> {
  if (record.status === "revoked" || (await stillBinds(rt, record))) return record;
  return { ...record, status: "void" };
}
