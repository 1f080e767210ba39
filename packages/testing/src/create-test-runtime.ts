import { ConfigurationError } from "@orpc-agent/core/adapter";
import {
  createAgentRuntime,
  createInMemoryApprovalCoordinator,
  defineGovernance,
  type Actor,
  type AgentGovernance,
  type AgentPolicy,
  type AgentRuntime,
  type ApprovalCoordinator,
  type ApprovalsConfig,
  type AuditSink,
  type CapabilityDescriptor,
  type CapabilityRegistry,
  type DescribeOptions,
  type DescribeScope,
  type ExecutionOptions,
  type ExecutionResult,
  type ExposureSurface,
  type ResumeOptions,
  type TracingAdapter,
} from "@orpc-agent/core";
import { capturedAudit, type CapturedAudit } from "./captured-audit.js";
import { fakeActor } from "./fake-actor.js";
import { forceTimeout } from "./forced-timeout.js";
import { applyHandlerOverrides, type HandlerOverride } from "./handler-overrides.js";
import { createTestApprovals, type TestApprovals } from "./test-approvals.js";
import { createTestGrants, type TestGrants } from "./test-grants.js";
import { testClock, type TestClock } from "./test-clock.js";

/** Where the test runtime's governance comes from: the production registry (with `policies`), or the production governance. */
export type AgentTestRuntimeSource =
  | {
      registry: CapabilityRegistry;
      /** Runtime-level policies beside `registry`. @default [] */
      policies?: AgentPolicy[];
      governance?: never;
    }
  | {
      /** The production governance itself. */
      governance: AgentGovernance;
      registry?: never;
      policies?: never;
    };

/** Options of {@link createAgentTestRuntime}. */
export type AgentTestRuntimeOptions<TContext = Record<string, unknown>> = AgentTestRuntimeSource & {
  /** @default an in-memory coordinator on the test clock */
  approvals?: "auto-approve" | "auto-reject" | ApprovalCoordinator;
  /** Extra sinks, installed after `t.audit`. */
  audit?: AuditSink | AuditSink[];
  /** @default fakeActor() */
  actor?: Actor;
  /** @default {} */
  context?: TContext;
  /** Handler stubs by capability id. */
  overrides?: Record<string, HandlerOverride>;
  /** @default testClock() */
  clock?: TestClock;
  tracing?: TracingAdapter;
};

/** Options of `t.invoke`; unset fields take the test runtime's own. */
export type TestInvokeOptions<TContext = Record<string, unknown>> = {
  /** @default the test runtime's `actor` */
  actor?: Actor;
  /** @default the test runtime's `context` */
  context?: TContext;
  /**
   * Any surface can be simulated per call.
   * @default "test"
   */
  surface?: ExposureSurface;
  signal?: AbortSignal;
  correlationId?: string;
  /** The call's conversation, for grants scoped to one (`invoke`'s `conversationId`). */
  conversationId?: string;
  /** Test-only: forces `meta.timeoutMs` of every capability for this call. */
  timeoutMs?: number;
};

export type AgentTestRuntime<TContext = Record<string, unknown>> = {
  invoke<O = unknown>(id: string, input: unknown, o?: TestInvokeOptions<TContext>): Promise<ExecutionResult<O>>;
  describe(
    surface?: ExposureSurface,
    o?: { actor?: Actor; context?: TContext; scope?: DescribeScope; inputSchemas?: DescribeOptions["inputSchemas"] },
  ): Promise<CapabilityDescriptor[]>;
  resume<O = unknown>(
    approvalId: string,
    o?: { context?: TContext; signal?: AbortSignal; expectedActor?: Actor; expectedSurface?: ExposureSurface },
  ): Promise<ExecutionResult<O>>;
  approvals: TestApprovals;
  /** Standing grants through the real `runtime.grants`, plus a `grant` shortcut. */
  grants: TestGrants;
  audit: CapturedAudit;
  clock: TestClock;
  defaultActor: Actor;
  /** The wrapped real runtime. */
  runtime: AgentRuntime<TContext>;
};

/** Inline decisions of the `"auto-*"` modes; distinct from every default actor, so self-approval stays meaningful. */
const AUTO_APPROVER: Actor = Object.freeze({ id: "auto-approver", kind: "automation" });

/**
 * A real `createAgentRuntime` with fakes only at the seams: clock, approval coordinator, audit sink, tracing and
 * handlers (docs/architecture/spec/adapters.md#adapters-4). Governance is never re-implemented, so what passes here passes in production.
 *
 * @example
 * import type { AgentGovernance } from "@orpc-agent/core";
 * import { createAgentTestRuntime } from "@orpc-agent/testing";
 * declare const governance: AgentGovernance;
 * const t = createAgentTestRuntime({ governance });
 * const pending = await t.invoke("orders.refund", { orderId: "o1", amount: 900 });
 * if (pending.status === "approval-required") await t.approvals.approve(pending.approval.id);
 */
export function createAgentTestRuntime<TContext = Record<string, unknown>>(
  options: AgentTestRuntimeOptions<TContext>,
): AgentTestRuntime<TContext> {
  if (typeof options !== "object" || options === null) {
    throw new ConfigurationError("createAgentTestRuntime(options): options must be an object with `registry` or `governance`.");
  }
  const clock = options.clock ?? testClock();
  if (typeof clock?.now !== "function") throw new ConfigurationError("createAgentTestRuntime: clock must be a TestClock (see testClock()).");
  const audit = capturedAudit();
  const sinks = [audit, ...extraSinks(options.audit)];
  const approvals = approvalsConfig(options.approvals, clock);
  const defaultActor = options.actor ?? fakeActor();
  const defaultContext = (options.context ?? {}) as TContext;

  let governance = baseGovernance(options);
  if (options.overrides !== undefined) governance = applyHandlerOverrides(governance, options.overrides);

  const build = (g: AgentGovernance) =>
    createAgentRuntime<TContext>({ governance: g, approvals, audit: sinks, now: clock.now, ...(options.tracing ? { tracing: options.tracing } : {}) });
  const runtime = build(governance);

  // One variant per distinct timeout, sharing coordinator, sinks and clock with the main runtime.
  const variants = new Map<number, AgentRuntime<TContext>>();
  const runtimeFor = (timeoutMs: number | undefined): AgentRuntime<TContext> => {
    if (timeoutMs === undefined) return runtime;
    if (typeof timeoutMs !== "number" || !Number.isFinite(timeoutMs) || timeoutMs <= 0) {
      throw new TypeError(`t.invoke: timeoutMs must be a finite number > 0, got ${String(timeoutMs)}.`);
    }
    let variant = variants.get(timeoutMs);
    if (variant === undefined) {
      variant = build(forceTimeout(governance, timeoutMs));
      variants.set(timeoutMs, variant);
    }
    return variant;
  };

  return {
    async invoke(id, input, o = {}) {
      const call: ExecutionOptions<TContext> = {
        actor: o.actor === undefined ? defaultActor : o.actor,
        context: o.context === undefined ? defaultContext : o.context,
        surface: o.surface ?? "test",
      };
      if (o.signal !== undefined) call.signal = o.signal;
      if (o.correlationId !== undefined) call.correlationId = o.correlationId;
      if (o.conversationId !== undefined) call.conversationId = o.conversationId;
      return runtimeFor(o.timeoutMs).invoke(id, input, call);
    },
    describe(surface = "test", o = {}) {
      const call: DescribeOptions<TContext> = {
        actor: o.actor === undefined ? defaultActor : o.actor,
        context: o.context === undefined ? defaultContext : o.context,
      };
      // Forwarded as given: scope narrows discovery, never authority (ADR-017 §7).
      if (o.scope !== undefined) call.scope = o.scope;
      if (o.inputSchemas !== undefined) call.inputSchemas = o.inputSchemas;
      return runtime.describe(surface, call);
    },
    resume(approvalId, o = {}) {
      const call: ResumeOptions<TContext> = { context: o.context === undefined ? defaultContext : o.context };
      if (o.signal !== undefined) call.signal = o.signal;
      if (o.expectedActor !== undefined) call.expectedActor = o.expectedActor;
      if (o.expectedSurface !== undefined) call.expectedSurface = o.expectedSurface;
      return runtime.resume(approvalId, call);
    },
    approvals: createTestApprovals(runtime),
    grants: createTestGrants(runtime, defaultActor),
    audit,
    clock,
    defaultActor,
    runtime,
  };
}

function baseGovernance(options: AgentTestRuntimeOptions<any>): AgentGovernance {
  const hasRegistry = options.registry !== undefined;
  const hasGovernance = options.governance !== undefined;
  if (hasRegistry === hasGovernance) {
    throw new ConfigurationError(
      "createAgentTestRuntime: give exactly one of `registry` (with optional `policies`) or `governance`, e.g. createAgentTestRuntime({ governance }).",
    );
  }
  if (hasGovernance) {
    if (options.policies !== undefined) {
      throw new ConfigurationError("createAgentTestRuntime: `policies` goes with `registry`; a governance already carries its policies.");
    }
    return options.governance!;
  }
  return defineGovernance({ registry: options.registry!, policies: options.policies ?? [] });
}

function approvalsConfig(given: AgentTestRuntimeOptions["approvals"], clock: TestClock): ApprovalsConfig {
  if (given === undefined) return { coordinator: createInMemoryApprovalCoordinator({ now: clock.now }) };
  if (given === "auto-approve" || given === "auto-reject") {
    const status = given === "auto-approve" ? "approved" : "rejected";
    return {
      coordinator: createInMemoryApprovalCoordinator({ now: clock.now }),
      handler: async () => ({ status, approver: AUTO_APPROVER }),
    };
  }
  const coordinator = given as Partial<ApprovalCoordinator> | null;
  const complete =
    typeof coordinator === "object" &&
    coordinator !== null &&
    (["create", "get", "decide", "markConsumed"] as const).every((method) => typeof coordinator[method] === "function");
  if (!complete) {
    throw new ConfigurationError('createAgentTestRuntime: approvals must be "auto-approve", "auto-reject" or an ApprovalCoordinator { create, get, decide, markConsumed }.');
  }
  return { coordinator: given as ApprovalCoordinator };
}

function extraSinks(given: AuditSink | AuditSink[] | undefined): AuditSink[] {
  if (given === undefined) return [];
  const list = Array.isArray(given) ? given : [given];
  if (!list.every((sink) => typeof sink === "function")) {
    throw new ConfigurationError("createAgentTestRuntime: audit must be a sink function or an array of sink functions.");
  }
  return list;
}
