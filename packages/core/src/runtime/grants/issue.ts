import { toAuditActorRef } from "../../audit/actor-ref.js";
import type { AgentAuditEvent } from "../../audit/types.js";
import { CapabilityError } from "../../errors/capability-error.js";
import { approverKey, sameApprover } from "../../approvals/approver-identity.js";
import { isAcceptableApprover } from "../../approvals/approver.js";
import { refusesActingAgent } from "../../approvals/acting-agent.js";
import { refusesSelfApproval } from "../../approvals/self-approval.js";
import { checkWithinCaps } from "../../approvals/grants/caps.js";
import type { GrantRecord, GrantRequest, GrantTerms } from "../../approvals/grants/types.js";
import { newGrantId } from "../../internal/ids.js";
import { approvalDefinition } from "../approvals/definition.js";
import type { RuntimeState } from "../state.js";
import type { Actor, ExposureSurface } from "../../vocabulary/types.js";
import { grantView } from "./view.js";

/** Who a grant is for and who issues it, before any check. */
export type GrantIssuance = {
  capabilityId: string;
  actor: Actor;
  surface: ExposureSurface;
  conversationId: string | undefined;
  issuers: readonly Actor[];
  /** The approval types covered; `undefined`: the capability's `approval.type` when it has one, else none. */
  types: readonly string[] | undefined;
  request: GrantRequest;
  /** The approval decided with it, when issued by `runtime.approvals.decide`. */
  approvalId?: string;
  /** The quorum the principal's request demanded, when issued with a decision; the capability's own always counts. */
  quorum?: number;
  /** The definition digest the approval was requested under; a different one today refuses the grant. */
  requestedDigest?: string;
};

/**
 * Every check an issue faces, in order, then the sealed terms (nothing stored yet): a store that keeps grants, a known
 * capability opted into grants and exposed on the surface, an accountable principal, a request within the caps and a
 * conversation for a conversation scope; then the issuers, under exactly the rules a fresh approval for that principal
 * and capability would face (SI-4): no self-approval beyond requester-confirmable types, no acting agent, as many
 * distinct approvers as the quorum.
 */
export async function prepareGrant(rt: RuntimeState, issuance: GrantIssuance): Promise<GrantTerms> {
  if (rt.grantStore === undefined) throw notAllowed("the approval coordinator does not keep grants (createGrant, getGrant, listGrants, useGrant, revokeGrant)");
  const plan = rt.plans.get(issuance.capabilityId);
  const caps = plan?.meta.approval?.grants;
  if (plan === undefined) throw notAllowed(`unknown capability "${issuance.capabilityId}"`);
  if (caps === undefined) throw notAllowed(`${plan.id} declares no approval.grants`);
  if (!plan.exposed[issuance.surface]) throw notAllowed(`${plan.id} is not exposed on ${issuance.surface}`);
  const principal = issuance.actor;
  if (!isAcceptableApprover(principal)) throw notAllowed("a grant needs an accountable principal: a well-formed actor that is not anonymous");
  const ttlMs = checkWithinCaps(plan.id, issuance.request, caps);
  const conversationId = issuance.request.scope === "conversation" ? issuance.conversationId : undefined;
  if (issuance.request.scope === "conversation" && (typeof conversationId !== "string" || conversationId.length === 0)) {
    throw notAllowed('scope "conversation" needs the conversation the call came from; the request carries none');
  }

  const quorum = Math.max(plan.meta.approval?.quorum ?? 1, issuance.quorum ?? 1);
  const gateType = plan.meta.approval?.type;
  const types = [...new Set(issuance.types ?? (gateType === undefined ? [] : [gateType]))];
  // Every call of a capability that requires approval demands its type: a grant without it would cover nothing.
  if (plan.approvalRequired && gateType !== undefined && !types.includes(gateType)) {
    throw new CapabilityError({
      code: "INPUT_INVALID",
      stage: "approval",
      details: { issues: [{ path: ["types"], message: `The types must include "${gateType}", the type every call of ${plan.id} demands.` }] },
      cause: new Error(`A grant for ${plan.id} must cover its approval type "${gateType}"`),
    });
  }
  const issuers = checkIssuers(rt, principal, issuance.issuers, types, quorum);

  const bound = await approvalDefinition(plan, issuance.surface);
  if (issuance.requestedDigest !== undefined && issuance.requestedDigest !== bound.digest) {
    throw notAllowed(`${plan.id}'s governance changed since the approval was requested`);
  }
  const issuedAt = rt.now();
  const terms: GrantTerms = {
    id: newGrantId(),
    capabilityId: plan.id,
    definitionDigest: bound.digest,
    actor: principal,
    surface: issuance.surface,
    scope: issuance.request.scope,
    ...(conversationId === undefined ? {} : { conversationId }),
    types,
    conditions: issuance.request.conditions ?? [],
    uses: issuance.request.uses,
    ...(issuance.request.budget === undefined ? {} : { budget: issuance.request.budget }),
    issuers,
    ...(issuance.approvalId === undefined ? {} : { approvalId: issuance.approvalId }),
    issuedAt,
    expiresAt: new Date(issuedAt.getTime() + ttlMs),
  };
  if (rt.sealer !== undefined) terms.seal = await rt.sealer.sealGrant(terms);
  return terms;
}

/** Stores prepared terms and records `grant.issued`; the record as `runtime.grants` shows it. */
export async function storeGrant(rt: RuntimeState, terms: GrantTerms): Promise<GrantRecord> {
  const created = await rt.grantStore!.createGrant(terms);
  if (rt.audit.enabled) rt.audit.emit(issuedEvent(terms, rt.now()));
  return grantView(rt, created);
}

/**
 * The distinct issuers (SI-4 spellings merged, first kept), or `GRANT_ISSUERS_INSUFFICIENT` when they could not have
 * approved the principal's call one by one.
 */
function checkIssuers(rt: RuntimeState, principal: Actor, given: readonly Actor[], types: readonly string[], quorum: number): Actor[] {
  if (!Array.isArray(given) || given.length === 0) throw insufficient("a grant needs at least one issuer");
  if (!given.every(isAcceptableApprover)) throw insufficient("every issuer must be a well-formed actor that is not anonymous");
  if (given.some((issuer) => sameApprover(issuer.id, principal.id)) && refusesSelfApproval(rt, types, quorum)) {
    throw insufficient("the principal cannot issue this grant to themselves: not every covered type is requester-confirmable, or a quorum applies");
  }
  if (refusesActingAgent(rt, principal, given, quorum)) throw insufficient("the principal's acting agent, or an approver acting through it or the principal, cannot issue a grant");
  const seen = new Set<string>();
  const issuers: Actor[] = [];
  for (const issuer of given) {
    const key = approverKey(issuer.id);
    if (seen.has(key)) continue;
    seen.add(key);
    issuers.push(issuer);
  }
  // Above one, the principal was refused just above, so every issuer counted is someone else (four eyes).
  if (issuers.length < quorum) throw insufficient(`${quorum} distinct issuers are needed, none of them the principal; ${issuers.length} given`);
  return issuers;
}

function issuedEvent(terms: GrantTerms, timestamp: Date): AgentAuditEvent {
  const data: Extract<AgentAuditEvent, { type: "grant.issued" }>["data"] = {
    grantId: terms.id,
    principal: toAuditActorRef(terms.actor),
    scope: terms.scope,
    types: [...terms.types],
    uses: terms.uses,
    expiresAt: terms.expiresAt,
    issuers: terms.issuers.map(toAuditActorRef),
    conditions: terms.conditions.map((condition) => ({ path: condition.path, op: condition.op })),
  };
  if (terms.conversationId !== undefined) data.conversationId = terms.conversationId;
  if (terms.budget !== undefined) data.budget = { path: terms.budget.path, max: terms.budget.max };
  if (terms.approvalId !== undefined) data.approvalId = terms.approvalId;
  // Like a decision event: the issuer is the actor, and no execution ran (ADR-012 §8).
  return Object.freeze({
    type: "grant.issued",
    timestamp,
    surface: terms.surface,
    actor: toAuditActorRef(terms.issuers[0]),
    capabilityId: terms.capabilityId,
    data: Object.freeze(data),
  }) as AgentAuditEvent;
}

function notAllowed(why: string): CapabilityError {
  return new CapabilityError({ code: "GRANT_NOT_ALLOWED", cause: new Error(`No grant can be issued: ${why}.`) });
}

function insufficient(why: string): CapabilityError {
  return new CapabilityError({ code: "GRANT_ISSUERS_INSUFFICIENT", cause: new Error(`The issuers cannot issue this grant: ${why}.`) });
}
