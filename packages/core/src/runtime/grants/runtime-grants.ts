import { toAuditActorRef } from "../../audit/actor-ref.js";
import type { AgentAuditEvent } from "../../audit/types.js";
import { CapabilityError } from "../../errors/capability-error.js";
import { isAcceptableApprover } from "../../approvals/approver.js";
import { isExpired } from "../../approvals/expiry.js";
import { readGrantRequest } from "../../approvals/grants/request.js";
import type { GrantIssueOptions, GrantRecord, RuntimeGrantListFilter, RuntimeGrants } from "../../approvals/grants/types.js";
import { isExposureSurface, isWellFormedActor, type Actor } from "../../vocabulary/types.js";
import type { RuntimeState } from "../state.js";
import { prepareGrant, storeGrant } from "./issue.js";
import { isGrantPrincipal } from "./principal.js";
import { grantView } from "./view.js";

/**
 * `runtime.grants` (SI-13, docs/guides/standing-grants.md). Reads never show what the runtime would not use: with
 * `approvals.seal`, a grant whose seal fails is unknown; a grant whose capability changed reads `void`.
 */
export function createRuntimeGrants(rt: RuntimeState): RuntimeGrants {
  const shown = async (record: GrantRecord | null): Promise<GrantRecord | null> => {
    if (record === null || typeof record !== "object") return null;
    if (rt.sealer !== undefined) {
      let sealed = false;
      try {
        sealed = await rt.sealer.verifyGrant(record);
      } catch {
        sealed = false;
      }
      if (!sealed) return null;
    }
    return grantView(rt, record);
  };

  const grants: RuntimeGrants = {
    async issue(options: GrantIssueOptions) {
      const read = readIssueOptions(options);
      const terms = await prepareGrant(rt, read);
      return storeGrant(rt, terms);
    },

    async get(id) {
      if (rt.grantStore === undefined || typeof id !== "string" || id.length === 0) return null;
      return shown(await rt.grantStore.getGrant(id));
    },

    async list(filter: RuntimeGrantListFilter = {}) {
      if (rt.grantStore === undefined) return [];
      const actor = filter.actor;
      if (actor !== undefined && !isWellFormedActor(actor)) throw invalid(["actor"], "actor must be a well-formed actor.");
      const records = await rt.grantStore.listGrants({
        ...(actor === undefined ? {} : { actorId: actor.id }),
        ...(filter.capabilityId === undefined ? {} : { capabilityId: filter.capabilityId }),
        ...(filter.active === undefined ? {} : { active: filter.active }),
      });
      const now = rt.now();
      const out: GrantRecord[] = [];
      for (const record of records) {
        if (actor !== undefined && !isGrantPrincipal(record.actor, actor)) continue;
        const view = await shown(record);
        if (view === null) continue;
        // Active means it would cover a call now: not void, and not expired on the runtime's clock either.
        const active = view.status === "active" && !isExpired(view.expiresAt, now);
        if (filter.active === true && !active) continue;
        out.push(view);
      }
      return out;
    },

    async revoke(id, options) {
      const by = options?.by;
      if (!isAcceptableApprover(by)) throw new CapabilityError({ code: "UNAUTHENTICATED", stage: "approval", cause: new Error("revoke needs `by`: a well-formed actor that is not anonymous") });
      const reason = options.reason;
      if (reason !== undefined && typeof reason !== "string") throw invalid(["reason"], "reason must be a string.");
      const revoker = JSON.parse(JSON.stringify(by)) as Actor;
      const known = rt.grantStore === undefined || typeof id !== "string" ? null : await shown(await rt.grantStore.getGrant(id));
      if (known === null) throw notFound(id);
      const at = rt.now();
      const revoked = await rt.grantStore!.revokeGrant(id, { by: revoker, at, ...(reason === undefined ? {} : { reason }) });
      if (revoked === null) throw notFound(id);
      // Only the revocation that took effect is recorded; a repeat answers the first one's record.
      const tookEffect = revoked.revoked?.at?.getTime() === at.getTime() && revoked.revoked.by?.id === revoker.id && revoked.revoked.reason === reason;
      if (tookEffect && rt.audit.enabled) rt.audit.emit(revokedEvent(revoked, revoker, at, reason));
      return grantView(rt, revoked);
    },
  };
  return Object.freeze(grants);
}

/** The options read once, as JSON where they are data; malformed ones are `INPUT_INVALID` (stage `approval`). */
function readIssueOptions(options: GrantIssueOptions): Parameters<typeof prepareGrant>[1] {
  if (typeof options !== "object" || options === null) throw invalid([], "issue takes { capabilityId, actor, surface, conversationId?, issuers, grant, types? }.");
  const { capabilityId, surface, conversationId, types } = options;
  if (typeof capabilityId !== "string" || capabilityId.length === 0) throw invalid(["capabilityId"], "capabilityId must be a non-empty string.");
  if (!isExposureSurface(surface)) throw invalid(["surface"], "surface must be an exposure surface.");
  if (conversationId !== undefined && (typeof conversationId !== "string" || conversationId.length === 0)) {
    throw invalid(["conversationId"], "conversationId must be a non-empty string when given.");
  }
  const actor = jsonCopy(options.actor);
  if (!isWellFormedActor(actor)) throw invalid(["actor"], "actor must be a well-formed actor.");
  const issuers = jsonCopy(options.issuers);
  if (!Array.isArray(issuers)) throw invalid(["issuers"], "issuers must be an array of actors.");
  if (types !== undefined && (!Array.isArray(types) || !types.every((type) => typeof type === "string" && type.length > 0))) {
    throw invalid(["types"], "types must be an array of approval type names.");
  }
  const request = readGrantRequest(options.grant);
  if (request.scope === "actor" && conversationId !== undefined) throw invalid(["conversationId"], 'conversationId binds scope "conversation" only.');
  return { capabilityId, actor, surface, conversationId, issuers: issuers as Actor[], types: types === undefined ? undefined : [...types], request };
}

function revokedEvent(record: GrantRecord, by: Actor, at: Date, reason: string | undefined): AgentAuditEvent {
  const data: Extract<AgentAuditEvent, { type: "grant.revoked" }>["data"] = {
    grantId: record.id,
    principal: toAuditActorRef(record.actor),
    usesLeft: record.usesLeft,
  };
  if (reason !== undefined) data.reason = reason;
  return Object.freeze({
    type: "grant.revoked",
    timestamp: at,
    surface: record.surface,
    actor: toAuditActorRef(by),
    capabilityId: record.capabilityId,
    data: Object.freeze(data),
  }) as AgentAuditEvent;
}

function jsonCopy(value: unknown): unknown {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

function notFound(id: unknown): CapabilityError {
  return new CapabilityError({ code: "GRANT_NOT_FOUND", cause: new Error(`Grant "${typeof id === "string" ? id : typeof id}" was not found`) });
}

function invalid(path: string[], message: string): CapabilityError {
  return new CapabilityError({ code: "INPUT_INVALID", stage: "approval", details: { issues: [{ path, message }] }, cause: new Error(message) });
}
