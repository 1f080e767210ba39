import type { AnyProcedure } from "@orpc/server";
import type { StandardSchemaV1 } from "@standard-schema/spec";
import type { AgentMeta, AgentPolicy, PolicyPhase } from "../capability/types.js";
import { EXPOSURE_SURFACES, type ExposureSurface } from "../vocabulary/types.js";
import type { CapabilityError } from "../errors/capability-error.js";
import { withoutInputSchema, withWrappedCallOptions } from "../orpc/procedure.js";
import { SIGNAL_ON_DEMAND, withOnDemandSignal } from "./stages/signal-on-demand.js";
import { flattenPolicies } from "../policy/compose.js";
import { isShadowPolicy } from "../policy/is-policy.js";
import { policyScopeMatches } from "../policy/scope.js";
import type { AgentCapability } from "../registry/types.js";
import { isEventIteratorSchema } from "../registry/event-iterator.js";

type PoliciesBySurface = Readonly<Record<ExposureSurface, readonly AgentPolicy[]>>;

/** Everything static about one capability, computed once at runtime creation (docs/architecture/spec/core.md#core-16). */
export type CapabilityPlan = {
  readonly capability: AgentCapability;
  readonly id: string;
  readonly meta: AgentMeta;
  readonly procedure: AnyProcedure;
  /**
   * What stage 11 calls: the procedure without its input schema, handed the value stage 5 validated, so a transform,
   * default or getter never runs twice (SI-6). Middlewares, output validation and errors are the procedure's own;
   * where SIGNAL_ON_DEMAND, each middleware and the handler see a signal made when first read (signal-on-demand.ts).
   */
  readonly executable: AnyProcedure;
  readonly path: readonly string[];
  readonly inputSchema: StandardSchemaV1 | undefined;
  readonly exposed: Readonly<Record<ExposureSurface, boolean>>;
  /** Applicable enforced policies per phase × surface, in evaluation order, scope already applied. */
  readonly policies: Readonly<Record<PolicyPhase, PoliciesBySurface>>;
  /** Applicable shadow policies per phase × surface: evaluated after the enforced ones of a batch, never obeyed. */
  readonly shadowPolicies: Readonly<Record<PolicyPhase, PoliciesBySurface>>;
  /** Some applicable policy scopes by acting agent (`scope.via`), so batches filter per call. */
  readonly agentScoped: boolean;
  readonly timeoutMs: number;
  readonly maxAttempts: number;
  readonly backoffMs: number;
  readonly retryOn: ((error: CapabilityError) => boolean) | undefined;
  /** SI-11: reads, or writes declared idempotent. */
  readonly retrySafe: boolean;
  readonly approvalRequired: boolean;
  readonly contextual: boolean;
  /** The output is an oRPC event iterator: stage 11 consumes it event by event (stages/stream.ts). */
  readonly streaming: boolean;
  /** Streaming only: the most the handler may take to yield its next event. */
  readonly streamIdleTimeoutMs: number;
  /** Streaming only: one event more fails the stream. */
  readonly streamMaxEvents: number;
};

/** The runtime's stream defaults, for capabilities without their own `meta.stream`. */
export type StreamDefaults = { readonly streamIdleTimeoutMs: number; readonly streamMaxEvents: number };

const STREAM_DEFAULTS: StreamDefaults = Object.freeze({ streamIdleTimeoutMs: 10_000, streamMaxEvents: 10_000 });

const EMPTY: readonly AgentPolicy[] = Object.freeze([]);

export function buildCapabilityPlan(
  capability: AgentCapability,
  runtimePolicies: readonly AgentPolicy[],
  defaultTimeoutMs: number,
  runtimeShadowPolicies: readonly AgentPolicy[] = EMPTY,
  streamDefaults: StreamDefaults = STREAM_DEFAULTS,
): CapabilityPlan {
  const meta = capability.meta;
  const own = flattenPolicies(meta.policies ?? []);
  const ordered = [...runtimePolicies.filter((p) => !isShadowPolicy(p)), ...own.filter((p) => !isShadowPolicy(p))];
  const shadows = [...runtimeShadowPolicies, ...runtimePolicies.filter(isShadowPolicy), ...own.filter(isShadowPolicy)];
  const exposed = {} as Record<ExposureSurface, boolean>;
  for (const surface of EXPOSURE_SURFACES) exposed[surface] = meta.expose[surface] === true;

  const byPhase = (source: readonly AgentPolicy[], phase: PolicyPhase): PoliciesBySurface => {
    const out = {} as Record<ExposureSurface, readonly AgentPolicy[]>;
    for (const surface of EXPOSURE_SURFACES) {
      const list = source.filter((p) => p.phases.includes(phase) && policyScopeMatches(p.scope, capability, surface));
      out[surface] = list.length === 0 ? EMPTY : Object.freeze(list);
    }
    return Object.freeze(out);
  };
  const phases = (source: readonly AgentPolicy[]) =>
    Object.freeze({ discovery: byPhase(source, "discovery"), invocation: byPhase(source, "invocation"), execution: byPhase(source, "execution") });

  const retry = meta.retry;
  const sideEffect = meta.sideEffect;
  return Object.freeze({
    capability,
    id: capability.id,
    meta,
    procedure: capability.procedure,
    // ADR-020: the executable copy is built by the oRPC seam, which knows each major's schema layout.
    executable: SIGNAL_ON_DEMAND
      ? withWrappedCallOptions(withoutInputSchema(capability.procedure), withOnDemandSignal)
      : withoutInputSchema(capability.procedure),
    path: Object.freeze([...capability.path]),
    inputSchema: capability.inputSchema,
    exposed: Object.freeze(exposed),
    policies: phases(ordered),
    shadowPolicies: phases(shadows),
    agentScoped: [...ordered, ...shadows].some((p) => p.scope?.via !== undefined),
    timeoutMs: meta.timeoutMs ?? defaultTimeoutMs,
    maxAttempts: retry?.maxAttempts ?? 0,
    backoffMs: retry?.backoffMs ?? 250,
    retryOn: retry?.retryOn,
    retrySafe: sideEffect === "none" || sideEffect === "read" || meta.idempotent === true,
    approvalRequired: meta.approval?.required === true,
    contextual: meta.discovery === "contextual",
    streaming: isEventIteratorSchema(capability.outputSchema),
    streamIdleTimeoutMs: meta.stream?.idleTimeoutMs ?? streamDefaults.streamIdleTimeoutMs,
    streamMaxEvents: meta.stream?.maxEvents ?? streamDefaults.streamMaxEvents,
  });
}
