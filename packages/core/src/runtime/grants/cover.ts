import { approverKey, sameApprover } from "../../approvals/approver-identity.js";
import { isAcceptableApprover } from "../../approvals/approver.js";
import { refusesActingAgent } from "../../approvals/acting-agent.js";
import { clockReading, isExpired, isExpiredAt } from "../../approvals/expiry.js";
import { refusesSelfApproval } from "../../approvals/self-approval.js";
import { budgetAmount, conditionsHold } from "../../approvals/grants/conditions.js";
import type { GrantRecord } from "../../approvals/grants/types.js";
import type { ApprovalSealer } from "../../approvals/seal/sealer.js";
import type { ApprovalDemand } from "../../policy/evaluate-batch.js";
import type { Actor } from "../../vocabulary/types.js";
import type { Execution } from "../execution.js";
import type { CapabilityPlan } from "../plan.js";
import type { RuntimeState } from "../state.js";
import type { SyncGrantOperations } from "../../approvals/grants/sync-grants.js";
import { isGrantPrincipal } from "./principal.js";
import { stillBinds, stillBindsNow } from "./view.js";

/**
 * A call covered by a grant: the grant (read in this tick only: the in-memory store's is its live entry), the uses it
 * has left after this one, the issuer named as approver, the quorum it holds (R10).
 */
export type GrantCover = { grant: GrantRecord; usesLeft: number; approver: Actor; quorum: number };

type Init = { actor: Actor; input: unknown; demands: readonly ApprovalDemand[] };

/** What the call demands: every type (the static gate's and each policy's) and the largest quorum. */
type Demand = { types: readonly string[]; quorum: number };

/**
 * The stage-9 lookup (SI-13): after the policies and before any approval request, the first live grant that covers
 * the call — this principal, surface, conversation, every demanded type and the quorum, its conditions and budget on
 * the validated input — with one use (and the amount) taken from it atomically by the store. A grant that loses the
 * race is passed over for the next; none left, the call asks for approval as it would without grants. A store that
 * fails covers nothing. Only this principal's grants on this capability are read.
 *
 * A store that answers in the same tick (the in-memory one) is asked without a promise when nothing else needs one
 * (no seal to verify, the definition digest known): the same checks in the same order, with no await between them.
 */
export function coverWithGrant(exec: Execution, init: Init): GrantCover | undefined | Promise<GrantCover | undefined> {
  const sync = exec.rt.grantsNow;
  return sync === undefined ? coverLater(exec, init) : coverNow(exec, init, sync);
}

/** No await anywhere: the lookup, every check and the use happen in one tick, on one clock reading. */
function coverNow(exec: Execution, init: Init, sync: SyncGrantOperations): GrantCover | undefined | Promise<GrantCover | undefined> {
  const { rt } = exec;
  let grants: readonly GrantRecord[];
  try {
    grants = sync.grantsOf(exec.plan!.id, init.actor.id);
  } catch {
    return undefined;
  }
  if (grants.length === 0) return undefined;
  const demand = demandOf(exec, init.demands);
  const now = rt.clockMs();
  for (let i = 0; i < grants.length; i++) {
    const grant = grants[i]!;
    const amount = coverableAmount(rt, exec, grant, init, demand, now, true);
    if (amount === NOT_COVERED) continue;
    const binds = stillBindsNow(rt, grant);
    // The digest is not known yet: this runtime's first covered call awaits it, through the store's own functions.
    if (binds === undefined) return coverLater(exec, init);
    if (!binds) continue;
    let used: boolean;
    try {
      used = sync.use(grant, now, amount);
    } catch {
      continue;
    }
    // The entry is live: what it says now is the use just taken.
    if (used) return { grant, usesLeft: grant.usesLeft, approver: grant.issuers[0]!, quorum: Math.max(demand.quorum, issuerFacts(grant, true).counted) };
  }
  return undefined;
}

async function coverLater(exec: Execution, init: Init): Promise<GrantCover | undefined> {
  const { rt } = exec;
  const store = rt.grantStore!;
  let candidates: readonly GrantRecord[];
  try {
    candidates = await store.listGrants({ capabilityId: exec.plan!.id, actorId: init.actor.id, active: true });
  } catch {
    return undefined;
  }
  if (!Array.isArray(candidates) || candidates.length === 0) return undefined;
  const demand = demandOf(exec, init.demands);
  for (const grant of candidates) {
    const amount = coverableAmount(rt, exec, grant, init, demand, clockReading(rt.now()), false);
    if (amount === NOT_COVERED) continue;
    if (!(await stillBinds(rt, grant)) || (rt.sealer !== undefined && !(await sealHolds(rt.sealer, grant)))) continue;
    // The checks above awaited: the use is judged on the clock as it reads now, so a grant that expired meanwhile
    // is never used (the store checks expiry against this same reading).
    const usedAt = rt.now();
    if (isExpired(grant.expiresAt, usedAt)) continue;
    let used: GrantRecord | null;
    try {
      used = await store.useGrant(grant.id, amount === undefined ? { now: usedAt } : { now: usedAt, amount });
    } catch {
      continue;
    }
    const cover = coverFrom(grant, used, demand);
    if (cover !== undefined) return cover;
  }
  return undefined;
}

const NOT_COVERED = Symbol("not covered");

/**
 * The budget amount the call would spend (`undefined` without a budget), or `NOT_COVERED` when a binding fails.
 * `shared`: the record is one of the in-memory store's live entries, whose frozen issuer facts may be kept.
 */
function coverableAmount(rt: RuntimeState, exec: Execution, grant: GrantRecord, init: Init, demand: Demand, now: number, shared: boolean): number | undefined | typeof NOT_COVERED {
  if (!covers(rt, exec, grant, init.actor, demand, now, shared) || !conditionsHold(grant.conditions, init.input)) return NOT_COVERED;
  if (grant.budget === undefined) return undefined;
  return budgetAmount(grant.budget, init.input) ?? NOT_COVERED;
}

/** The use is the one checked: the same grant, the same sealed terms. */
function coverFrom(grant: GrantRecord, used: GrantRecord | null, demand: Demand): GrantCover | undefined {
  if (used === null || typeof used !== "object" || used.id !== grant.id || used.seal !== grant.seal) return undefined;
  return { grant: used, usesLeft: used.usesLeft, approver: grant.issuers[0]!, quorum: Math.max(demand.quorum, issuerFacts(grant, false).counted) };
}

// With no policy demand, what a call demands is fixed by its plan, fixed for the runtime's life: built once (issue 45).
const planDemands = new WeakMap<CapabilityPlan, Demand>();

function demandOf(exec: Execution, demands: readonly ApprovalDemand[]): Demand {
  const plan = exec.plan!;
  if (demands.length > 0) return demandFrom(plan, demands);
  let kept = planDemands.get(plan);
  if (kept === undefined) planDemands.set(plan, (kept = demandFrom(plan, demands)));
  return kept;
}

function demandFrom(plan: CapabilityPlan, demands: readonly ApprovalDemand[]): Demand {
  const gate = plan.meta.approval;
  const types: string[] = [];
  let quorum = gate?.quorum ?? 1;
  if (plan.approvalRequired && gate?.type !== undefined) types.push(gate.type);
  for (const demand of demands) {
    if (demand.approvalType !== undefined) types.push(demand.approvalType);
    if (demand.quorum !== undefined && demand.quorum > quorum) quorum = demand.quorum;
  }
  return Object.freeze({ types: Object.freeze(types), quorum });
}

/** Every binding of the grant against this call, cheapest first; the store's counters bounded by the sealed terms. */
function covers(rt: RuntimeState, exec: Execution, grant: GrantRecord, actor: Actor, demand: Demand, now: number, shared: boolean): boolean {
  if (grant?.status !== "active" || grant.revoked !== undefined || isExpiredAt(grant.expiresAt, now)) return false;
  if (grant.capabilityId !== exec.plan!.id || grant.surface !== exec.surface || !isGrantPrincipal(grant.actor, actor)) return false;
  if (grant.scope === "conversation") {
    if (typeof grant.conversationId !== "string" || grant.conversationId !== exec.conversationId) return false;
  } else if (grant.scope !== "actor") {
    return false;
  }
  if (!Array.isArray(grant.types) || !includesAll(grant.types, demand.types)) return false;
  if (!Array.isArray(grant.conditions) || !Number.isSafeInteger(grant.uses) || !Number.isSafeInteger(grant.usesLeft)) return false;
  if (grant.usesLeft < 1 || grant.usesLeft > grant.uses) return false;
  if (grant.budget !== undefined && !(typeof grant.spent === "number" && grant.spent >= 0 && grant.spent <= grant.budget.max)) return false;
  return issuersStand(rt, grant, demand.quorum, shared);
}

/** Every demanded type is among the grant's (a loop: no closure per call). */
function includesAll(granted: readonly string[], demanded: readonly string[]): boolean {
  for (let i = 0; i < demanded.length; i++) if (!granted.includes(demanded[i]!)) return false;
  return true;
}

/**
 * The issuers still could approve this call one by one, under today's rules (defence in depth, as R4 at resume):
 * accountable, no self-approval beyond requester-confirmable types, no acting agent, enough distinct people.
 */
function issuersStand(rt: RuntimeState, grant: GrantRecord, quorum: number, shared: boolean): boolean {
  const issuers = grant.issuers;
  if (!Array.isArray(issuers) || issuers.length === 0) return false;
  const facts = issuerFacts(grant, shared);
  if (!facts.accountable) return false;
  if (facts.includesPrincipal && refusesSelfApproval(rt, grant.types, quorum)) return false;
  // Without a relay conflict the rule refuses nothing, whatever it is; with one, it decides.
  if (facts.relayConflict && refusesActingAgent(rt, grant.actor, issuers, quorum)) return false;
  return facts.distinct >= quorum;
}

/**
 * What a grant's issuers are against its principal: fixed by its terms. `distinct`: the people a quorum would count;
 * `counted`: the quorum a covered call then holds for later execution-phase demands (R10), never the principal nor
 * its acting agent or a relay through them (four eyes).
 */
type IssuerFacts = { accountable: boolean; includesPrincipal: boolean; relayConflict: boolean; distinct: number; counted: number };

// Kept per frozen issuers array of the in-memory store's entries (and the principal they were judged against): the
// terms can never change under them, so neither can these facts.
const keptFacts = new WeakMap<object, { actor: unknown; facts: IssuerFacts }>();

const UNACCOUNTABLE: IssuerFacts = Object.freeze({ accountable: false, includesPrincipal: false, relayConflict: false, distinct: 0, counted: 0 });

function issuerFacts(grant: GrantRecord, shared: boolean): IssuerFacts {
  if (shared) {
    const kept = keptFacts.get(grant.issuers);
    if (kept !== undefined && kept.actor === grant.actor) return kept.facts;
  }
  const { issuers, actor } = grant;
  if (!issuers.every(isAcceptableApprover)) return UNACCOUNTABLE;
  const counted = new Set<string>();
  for (const issuer of issuers) {
    if (sameApprover(issuer.id, actor.id) || refusesActingAgent({ rejectSelfApproval: true }, actor, [issuer], 2)) continue;
    counted.add(approverKey(issuer.id));
  }
  const facts: IssuerFacts = {
    accountable: true,
    includesPrincipal: issuers.some((issuer) => sameApprover(issuer.id, actor.id)),
    relayConflict: refusesActingAgent({ rejectSelfApproval: true }, actor, issuers),
    distinct: new Set(issuers.map((issuer) => approverKey(issuer.id))).size,
    counted: counted.size,
  };
  if (shared) keptFacts.set(grant.issuers, { actor: grant.actor, facts });
  return facts;
}

async function sealHolds(sealer: ApprovalSealer, grant: GrantRecord): Promise<boolean> {
  try {
    return await sealer.verifyGrant(grant);
  } catch {
    return false;
  }
}
