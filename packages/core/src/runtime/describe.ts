import { canHashSync, sha256Hex, sha256HexAsync } from "../approvals/hash.js";
import { toAuditActorRef } from "../audit/actor-ref.js";
import type { AgentAuditEvent } from "../audit/types.js";
import { isExposureSurface, isWellFormedActor, type ExposureSurface } from "../vocabulary/types.js";
import { CapabilityError } from "../errors/capability-error.js";
import { copyJsonTree } from "../internal/json-tree.js";
import { isPromiseLike, monotonicNow } from "../internal/promise.js";
import { evaluatePolicyBatch, type PolicyBatchResult } from "../policy/evaluate-batch.js";
import { shadowDivergences, type ShadowDivergence } from "../policy/evaluate-shadows.js";
import { forActingAgent } from "./stages/policies.js";
import type { AgentPolicy, PolicyRequest } from "../capability/types.js";
import { sharedJsonSchema } from "../schema/shared-json-schema.js";
import { toJsonSchema } from "../schema/to-json-schema.js";
import type { CapabilityPlan } from "./plan.js";
import type { RuntimeState } from "./state.js";
import type { CapabilityDescriptor, DescribeOptions, DescribeScope } from "./types.js";

const EMPTY_OBJECT_SCHEMA = Object.freeze({ type: "object" });

/**
 * `runtime.describe`: exposure → scope → discovery policies → descriptors → event (docs/architecture/spec/core.md#core-8).
 * Advisory only: every invoke re-checks (SI-2). Opens no spans.
 */
export async function describe(rt: RuntimeState, surface: ExposureSurface, options: DescribeOptions<unknown>): Promise<CapabilityDescriptor[]> {
  assertDescribeArguments(surface, options);
  const candidates = applyScope(rt.exposedBySurface[surface], options.scope);
  const verdicts = await evaluateDiscovery(rt, surface, options, candidates);

  const shareSchemas = options.inputSchemas === "shared";
  const descriptors: CapabilityDescriptor[] = [];
  for (let i = 0; i < candidates.length; i++) {
    const verdict = verdicts[i];
    if (verdict === "excluded") continue;
    descriptors.push(toDescriptor(candidates[i]!, verdict === "require-approval", shareSchemas));
  }

  if (rt.audit.enabled) {
    // Equal catalogs ⇔ equal digests: hash the sorted ids. Compare it, never parse it.
    const sortedIds = descriptors.map((d) => d.id).sort().join("\n");
    const digest = canHashSync ? sha256Hex(sortedIds) : await sha256HexAsync(sortedIds);
    rt.audit.emit(discoveredEvent(rt, surface, options, descriptors, digest));
  }
  return descriptors;
}

function assertDescribeArguments(surface: unknown, options: DescribeOptions<unknown>): void {
  if (!isExposureSurface(surface)) throw new TypeError(`describe: unknown surface ${JSON.stringify(surface)}.`);
  if (typeof options !== "object" || options === null) throw new TypeError("describe: options must be an object: { actor, context, scope?, inputSchemas? }.");
  if (!isWellFormedActor(options.actor)) throw new TypeError("describe: options.actor must be a well-formed actor ({ id: non-empty string, kind }).");
  const inputSchemas = options.inputSchemas;
  if (inputSchemas !== undefined && inputSchemas !== "copy" && inputSchemas !== "shared") {
    throw new TypeError(`describe: options.inputSchemas must be "copy" or "shared", got ${JSON.stringify(inputSchemas)}.`);
  }
  const scope = options.scope;
  if (scope === undefined) return;
  if (typeof scope !== "object" || scope === null || Array.isArray(scope)) throw new TypeError("describe: scope must be { tags?: string[]; ids?: string[] }.");
  for (const key of Object.keys(scope)) {
    if (key !== "tags" && key !== "ids") throw new TypeError(`describe: unknown scope key "${key}".`);
    const list = (scope as Record<string, unknown>)[key];
    if (list !== undefined && (!Array.isArray(list) || list.some((v) => typeof v !== "string"))) {
      throw new TypeError(`describe: scope.${key} must be an array of strings.`);
    }
  }
}

/** Scope narrows before any policy runs: ids exact, tags any-of, both → union; `[]` matches nothing. Never authority. */
function applyScope(plans: readonly CapabilityPlan[], scope: DescribeScope | undefined): readonly CapabilityPlan[] {
  if (scope === undefined || (scope.ids === undefined && scope.tags === undefined)) return plans;
  const ids = scope.ids ? new Set(scope.ids) : undefined;
  const tags = scope.tags ? new Set(scope.tags) : undefined;
  return plans.filter((p) => (ids !== undefined && ids.has(p.id)) || (tags !== undefined && (p.meta.tags ?? []).some((t) => tags.has(t))));
}

type Verdict = "included" | "require-approval" | "excluded";

/**
 * Discovery policies per candidate, each its own batch and outcome, up to `policyConcurrency` at once, all bounded
 * by the discovery budget. Budget expiry rejects the whole call: never a short catalog.
 */
async function evaluateDiscovery(
  rt: RuntimeState,
  surface: ExposureSurface,
  options: DescribeOptions<unknown>,
  candidates: readonly CapabilityPlan[],
): Promise<Verdict[]> {
  const verdicts: Verdict[] = new Array(candidates.length).fill("included");
  // One clock reading per batch, because reads are a measurable share of discovery at hundreds of candidates:
  // the reading taken after a batch is also the next batch's "before", since nothing is awaited between them.
  let now = monotonicNow();
  // Moved later by the time synchronous shadows take: the budget is the enforced policies' (SI-7, ADR-028).
  let deadline = now + rt.defaults.discoveryBudgetMs;
  const lanes = new Set<Promise<void>>();
  let expired = false;

  const checkBudget = (at: number) => {
    if (expired || at > deadline) {
      expired = true;
      throw new CapabilityError({ code: "TIMEOUT", stage: "discovery" });
    }
  };
  // Shadows run outside the lanes and the budget, under a bound of their own, and are never waited for: a hanging
  // one neither fails, shortens nor delays the answer; its divergence is recorded when it settles (drain waits).
  const runShadows = (plan: CapabilityPlan, shadows: readonly AgentPolicy[], request: PolicyRequest, batch: PolicyBatchResult) => {
    const started = monotonicNow();
    const divergences = shadowDivergences(shadows, request, started + rt.defaults.policyTimeoutMs, batch.verdict, started);
    const settle = (found: readonly ShadowDivergence[]) => emitDivergences(rt, found, batch.verdict, plan, surface, options);
    if (isPromiseLike(divergences)) rt.audit.track(divergences.then(settle));
    else settle(divergences);
    deadline += monotonicNow() - started;
  };

  for (let i = 0; i < candidates.length; i++) {
    const plan = candidates[i]!;
    let policies = plan.policies.discovery[surface];
    let shadows = plan.shadowPolicies.discovery[surface];
    if (plan.approvalRequired) verdicts[i] = "require-approval";
    if (plan.agentScoped) {
      policies = forActingAgent(policies, options.actor);
      shadows = forActingAgent(shadows, options.actor);
    }
    if (policies.length === 0 && shadows.length === 0) continue;
    checkBudget(now);
    const request: PolicyRequest = {
      phase: "discovery",
      capability: { id: plan.id, meta: plan.meta },
      surface,
      actor: options.actor,
      context: options.context,
      input: undefined,
    };
    const timeoutMs = Math.max(1, Math.min(rt.defaults.policyTimeoutMs, deadline - now));
    const batch = evaluatePolicyBatch(policies, request, timeoutMs, now);
    if (!isPromiseLike(batch)) {
      applyVerdict(verdicts, i, batch);
      // The batch's own last reading (docs/architecture/spec/core.md#core-16: one read per synchronous policy, none extra).
      checkBudget((now = batch.endedAt ?? monotonicNow()));
      if (shadows.length > 0) {
        runShadows(plan, shadows, request, batch);
        now = monotonicNow();
      }
      continue;
    }
    // Lanes never reject: a failing batch already resolves to an "error" verdict.
    const lane: Promise<void> = batch.then((b) => {
      lanes.delete(lane);
      applyVerdict(verdicts, i, b);
      if (monotonicNow() > deadline) expired = true;
      if (shadows.length > 0) runShadows(plan, shadows, request, b);
    });
    lanes.add(lane);
    if (lanes.size >= rt.defaults.policyConcurrency) await Promise.race(lanes);
    // The batch's synchronous part (and any wait for a free lane) took time too.
    now = monotonicNow();
  }
  await Promise.all(lanes);
  checkBudget(monotonicNow());
  return verdicts;
}

/** Discovery shadows leave their divergences as events naming the capability, with no execution (describe runs none). */
function emitDivergences(
  rt: RuntimeState,
  divergences: readonly ShadowDivergence[],
  enforced: PolicyBatchResult["verdict"],
  plan: CapabilityPlan,
  surface: ExposureSurface,
  options: DescribeOptions<unknown>,
): void {
  if (!rt.audit.enabled) return;
  for (const divergence of divergences) {
    rt.audit.emit(
      Object.freeze({
        type: "capability.shadow_diverged",
        timestamp: rt.now(),
        surface,
        actor: toAuditActorRef(options.actor),
        capabilityId: plan.id,
        data: Object.freeze({ policy: divergence.policy, phase: "discovery", decision: divergence.decision, enforced }),
      }) as AgentAuditEvent,
    );
  }
}

function applyVerdict(verdicts: Verdict[], index: number, batch: PolicyBatchResult): void {
  if (batch.verdict === "error" || batch.verdict === "deny" || batch.verdict === "hide") verdicts[index] = "excluded";
  else if (batch.verdict === "require-approval") verdicts[index] = "require-approval";
}

function toDescriptor(plan: CapabilityPlan, requiresApproval: boolean, shareSchema: boolean): CapabilityDescriptor {
  const meta = plan.meta;
  const schema = plan.inputSchema ? toJsonSchema(plan.inputSchema) : EMPTY_OBJECT_SCHEMA;
  const descriptor: CapabilityDescriptor = {
    id: plan.id,
    description: meta.description,
    // A copy, or a frozen shared tree: either way a caller can never poison the memoized conversion.
    inputSchema: (shareSchema ? sharedJsonSchema(schema) : copyJsonTree(schema)) as CapabilityDescriptor["inputSchema"],
    sideEffect: meta.sideEffect,
    risk: meta.risk,
    tags: [...(meta.tags ?? [])],
  };
  if (requiresApproval) descriptor.requiresApproval = true;
  if (plan.contextual) descriptor.contextual = true;
  if (plan.streaming) descriptor.streaming = true;
  return descriptor;
}

function discoveredEvent(
  rt: RuntimeState,
  surface: ExposureSurface,
  options: DescribeOptions<unknown>,
  descriptors: CapabilityDescriptor[],
  digest: string,
): AgentAuditEvent {
  const data: { count: number; surface: ExposureSurface; digest: string; capabilityIds?: string[] } = { count: descriptors.length, surface, digest };
  if (rt.audit.verbose) data.capabilityIds = descriptors.map((d) => d.id);
  return Object.freeze({
    type: "capabilities.discovered",
    timestamp: rt.now(),
    surface,
    actor: toAuditActorRef(options.actor),
    data: Object.freeze(data),
  }) as AgentAuditEvent;
}
