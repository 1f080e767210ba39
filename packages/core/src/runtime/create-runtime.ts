import { createInMemoryApprovalCoordinator, isInMemoryCoordinator } from "../approvals/in-memory-coordinator.js";
import { checkSealOptions } from "../approvals/seal/keys.js";
import { checkDecisionLinkOptions } from "../approvals/links/keys.js";
import { macKeys } from "../approvals/seal/mac.js";
import { createApprovalSealer } from "../approvals/seal/sealer.js";
import { sealingCoordinator } from "../approvals/seal/sealing-coordinator.js";
import { decisionEdits } from "./approvals/approve-with-changes.js";
import { registerRuntimeState } from "./visibility.js";
import { wrapCoordinator } from "./approvals/runtime-approvals.js";
import { grantStoreOf, sameTickGrants } from "./grants/store.js";
import { createRuntimeGrants } from "./grants/runtime-grants.js";
import { decisionGrants } from "./grants/with-decision.js";
import { requesterConfirmableTypes } from "../approvals/self-approval.js";
import { createAuditEmitter, normalizeAuditConfig } from "../audit/emitter.js";
import { EXPOSURE_SURFACES, MODEL_SURFACES, type ExposureSurface } from "../vocabulary/types.js";
import { toJsonSchema } from "../schema/to-json-schema.js";
import { describe } from "./describe.js";
import { invoke } from "./invoke.js";
import { buildCapabilityPlan, type CapabilityPlan } from "./plan.js";
import { resume } from "./resume.js";
import type { ResolvedDefaults, RuntimeState } from "./state.js";
import type { ApprovalsConfig } from "../approvals/types.js";
import type { ApprovalNotifyOptions } from "../approvals/notify/types.js";
import { createRuntimeNotifications } from "./approvals/notifications.js";
import type { AuditConfig } from "../audit/types.js";
import type { AgentGovernance } from "../governance/types.js";
import type { TracingAdapter } from "../tracing/types.js";
import { containTracing } from "../tracing/contained.js";
import type { AgentRuntime } from "./types.js";
import { emitStartupWarnings } from "./warnings.js";
import { clockReading } from "../approvals/expiry.js";

const DEFAULTS: ResolvedDefaults = Object.freeze({
  timeoutMs: 30_000,
  policyTimeoutMs: 5_000,
  policyConcurrency: 16,
  discoveryBudgetMs: 30_000,
  approvalExpiresInMs: 900_000,
  streamIdleTimeoutMs: 10_000,
  streamMaxEvents: 10_000,
  progressIntervalMs: 100,
});

/** Runtime-wide defaults; each must be a finite number above 0 (`policyConcurrency` and `streamMaxEvents` positive integers). */
export type RuntimeDefaults = {
  /**
   * Each attempt of a capability without its own `meta.timeoutMs`.
   * @default 30_000
   */
  timeoutMs?: number;
  /**
   * The shared deadline of one policy batch (one phase, one capability).
   * @default 5_000
   */
  policyTimeoutMs?: number;
  /**
   * How many capabilities' discovery policies run at once in `describe`.
   * @default 16
   */
  policyConcurrency?: number;
  /**
   * The whole of one `describe`; past it, `describe` rejects with `TIMEOUT`.
   * @default 30_000
   */
  discoveryBudgetMs?: number;
  /**
   * The lifetime of an approval request when neither the capability nor a policy sets one.
   * @default 900_000 (15 minutes)
   */
  approvalExpiresInMs?: number;
  /**
   * A streaming capability without its own `meta.stream.idleTimeoutMs`: the most its handler may take to yield the
   * next event (or to end). The caller's time in `onEvent` does not count.
   * @default 10_000
   */
  streamIdleTimeoutMs?: number;
  /**
   * A streaming capability without its own `meta.stream.maxEvents`: one event more fails the stream. A positive integer.
   * @default 10_000
   */
  streamMaxEvents?: number;
  /**
   * Progress delivery: at most one `onProgress` call per this many milliseconds per execution; the latest update in
   * between is kept and delivered at the end of the window or just before the result.
   * @default 100
   */
  progressIntervalMs?: number;
};

/** Options of {@link createAgentRuntime}. */
export type AgentRuntimeOptions<TContext = unknown> = {
  governance: AgentGovernance;
  /**
   * Where approval requests live and how they are decided, and (`notify`) whom to tell: approval notifications are
   * best effort, queued and bounded, never awaited by a call or a decision (`ApprovalNotifyOptions`).
   * @default an in-memory coordinator (lost on restart; a startup warning names it when a capability needs approval)
   */
  approvals?: ApprovalsConfig & ApprovalNotifyOptions;
  /** Audit sinks and mode; without one, no audit event is kept. */
  audit?: AuditConfig;
  /** Spans per call; without one, nothing is traced. */
  tracing?: TracingAdapter;
  defaults?: RuntimeDefaults;
  /**
   * Timestamps, durations and expiry checks. Never drives timers.
   * @default () => new Date()
   */
  now?: () => Date;
};

/**
 * Builds the governed runtime over a governance. Pure, synchronous and cheap (one runtime per request is fine):
 * everything static per capability is computed here, not per call (docs/architecture/spec/core.md#core-5, docs/architecture/spec/core.md#core-16).
 *
 * @example
 * import { createAgentRuntime, type Actor, type AgentGovernance, type ApprovalCoordinator, type AuditSink } from "@orpc-agent/core";
 * declare const governance: AgentGovernance, auditSink: AuditSink, coordinator: ApprovalCoordinator;
 * declare const actor: Actor, context: { tenant: string }, input: { orderId: string };
 * const runtime = createAgentRuntime({ governance, audit: auditSink, approvals: { coordinator } });
 * const result = await runtime.invoke("orders.refund", input, { actor, context, surface: "aiSdk" });
 */
export function createAgentRuntime<TContext = unknown>(options: AgentRuntimeOptions<TContext>): AgentRuntime<TContext> {
  const governance = options?.governance;
  if (typeof governance !== "object" || governance === null || typeof governance.registry?.get !== "function" || !Array.isArray(governance.policies)) {
    throw new TypeError("createAgentRuntime needs a governance: createAgentRuntime({ governance: defineGovernance({ registry, policies }) }).");
  }
  const defaults = resolveDefaults(options.defaults);
  const now = options.now ?? (() => new Date());
  if (typeof now !== "function") throw new TypeError("now must be a function returning a Date.");
  const approvals = options.approvals ?? {};
  if (approvals.handler !== undefined && typeof approvals.handler !== "function") throw new TypeError("approvals.handler must be a function.");
  const tracing = options.tracing === undefined ? undefined : containTracing(checkTracing(options.tracing));
  const audit = createAuditEmitter(options.audit);
  const sealKeys = approvals.seal === undefined || approvals.seal === false ? undefined : checkSealOptions(approvals.seal);
  const sealer = sealKeys === undefined ? undefined : createApprovalSealer(sealKeys);
  const links = approvals.links === undefined ? undefined : macKeys(checkDecisionLinkOptions(approvals.links, sealKeys));
  const stored = approvals.coordinator ?? createInMemoryApprovalCoordinator({ now });
  const coordinator = sealer === undefined ? stored : sealingCoordinator(stored, sealer, now);
  const rejectSelfApproval = approvals.rejectSelfApproval !== false;
  const requesterConfirmable = requesterConfirmableTypes(approvals.requesterConfirmable);
  const notifications = createRuntimeNotifications(approvals, {
    audit,
    now,
    registry: governance.registry,
    selfApproval: { rejectSelfApproval, requesterConfirmable },
    // Bound late: notifications are raised only once the runtime exists.
    decisionLink: links === undefined ? undefined : (id, request) => runtime.approvals.decisionLink(id, request),
  });

  const plans = new Map<string, CapabilityPlan>();
  const exposedBySurface = Object.fromEntries(EXPOSURE_SURFACES.map((s) => [s, [] as CapabilityPlan[]])) as Record<ExposureSurface, CapabilityPlan[]>;
  for (const capability of governance.registry.capabilities()) {
    const plan = buildCapabilityPlan(capability, governance.policies, defaults.timeoutMs, governance.shadowPolicies ?? [], defaults);
    verifySchemaConvertible(plan);
    plans.set(plan.id, plan);
    for (const surface of EXPOSURE_SURFACES) if (plan.exposed[surface]) exposedBySurface[surface].push(plan);
  }

  emitStartupWarnings(governance, [...plans.values()], {
    hasCoordinator: approvals.coordinator !== undefined,
    unsealedStore: approvals.seal === undefined && approvals.coordinator !== undefined && !isInMemoryCoordinator(approvals.coordinator),
    hasHandler: approvals.handler !== undefined,
    hasSink: normalizeAuditConfig(options.audit).sinks.length > 0,
  });

  const grantStore = grantStoreOf(stored);
  const state: RuntimeState = {
    governance,
    plans,
    exposedBySurface,
    defaults,
    now,
    clockMs: options.now === undefined ? Date.now : () => clockReading(now()),
    audit,
    tracing,
    coordinator,
    sealer,
    approvalHandler: approvals.handler,
    rejectSelfApproval,
    requesterConfirmable,
    grantStore,
    grantsNow: grantStore === undefined || sealer !== undefined ? undefined : sameTickGrants(grantStore),
    notifications,
  };

  const runtime: AgentRuntime<TContext> = {
    governance,
    registry: governance.registry,
    approvals: wrapCoordinator(coordinator, {
      audit,
      now,
      sealer,
      ...(sealer === undefined ? {} : { unsealed: stored }),
      selfApproval: { rejectSelfApproval, requesterConfirmable },
      grants: decisionGrants(state),
      edits: decisionEdits(state),
      links,
      notifications,
      registry: governance.registry,
    }),
    grants: createRuntimeGrants(state),
    invoke: (id, input, invokeOptions) => invoke(state, id, input, invokeOptions as never),
    describe: (surface, describeOptions) => describe(state, surface, describeOptions as never),
    resume: (approvalId, resumeOptions) => resume(state, approvalId, resumeOptions as never),
    // Only an absent timeoutMs takes the default, as a destructuring default would; `null` is invalid (docs/architecture/spec/core.md#core-11).
    drainAudit: (drainOptions) => audit.drain(drainOptions?.timeoutMs === undefined ? 5_000 : drainOptions.timeoutMs),
  };
  registerRuntimeState(runtime, state);
  return Object.freeze(runtime);
}

function checkTracing(tracing: TracingAdapter): TracingAdapter {
  if (typeof (tracing as Partial<TracingAdapter> | null)?.startSpan !== "function") {
    throw new TypeError("tracing must be a TracingAdapter: an object with startSpan(name, attributes, parent?).");
  }
  return tracing;
}

const INTEGER_DEFAULTS: ReadonlySet<string> = new Set(["policyConcurrency", "streamMaxEvents"]);

function resolveDefaults(given: RuntimeDefaults | undefined): ResolvedDefaults {
  if (given === undefined) return DEFAULTS;
  if (typeof given !== "object" || given === null) throw new TypeError("defaults must be an object.");
  const out = { ...DEFAULTS };
  for (const key of Object.keys(DEFAULTS) as (keyof ResolvedDefaults)[]) {
    const value = given[key];
    if (value === undefined) continue;
    const valid = typeof value === "number" && Number.isFinite(value) && value > 0 && (!INTEGER_DEFAULTS.has(key) || Number.isInteger(value));
    if (!valid) throw new TypeError(`defaults.${key} must be ${INTEGER_DEFAULTS.has(key) ? "a positive integer" : "a finite number > 0"}, got ${String(value)}.`);
    out[key] = value;
  }
  return Object.freeze(out);
}

/** Schema-consuming exposures must convert at startup, never on a first call (docs/architecture/spec/core.md#core-5, docs/architecture/spec/core.md#core-13). */
function verifySchemaConvertible(plan: CapabilityPlan): void {
  if (!plan.inputSchema || !MODEL_SURFACES.some((s) => plan.exposed[s])) return;
  try {
    toJsonSchema(plan.inputSchema);
  } catch (error) {
    throw new Error(`Capability ${plan.id}: its input schema cannot be converted to JSON Schema: ${(error as Error).message}`, { cause: error });
  }
}
