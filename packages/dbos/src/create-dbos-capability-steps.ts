import type { Actor, AgentRuntime } from "@orpc-agent/core";
import { ConfigurationError } from "@orpc-agent/core/adapter";
import type { InvocationService } from "@orpc-agent/core/server";
import type { StepsState } from "./state.js";
import type { DBOSCapabilitySteps } from "./types.js";
import { invokeInWorkflow } from "./invoke-in-workflow.js";
import { wakeWorkflow } from "./wake.js";

const DEFAULT_APPROVAL_POLL_MS = 60_000;
const DEFAULT_UNKNOWN_MAX_WAIT_MS = 7 * 24 * 60 * 60 * 1000;

/** Options of {@link createDBOSCapabilitySteps}. */
export type DBOSCapabilityStepsOptions<TContext> = {
  /** The journaled invocation service; a non-durable journal is refused unless `allowNonDurableJournal`. */
  service: InvocationService;
  /** Builds the runtime for one step execution (docs/architecture/spec/core.md#core-5: one runtime per request). */
  runtime: () => AgentRuntime<TContext> | Promise<AgentRuntime<TContext>>;
  /**
   * The acting identity, read inside each step so attributes are fresh. Trusted only: the engine's persisted
   * initiating identity (e.g. `DBOS.authenticatedUser`) or a deployment identity, never workflow input (SI-3).
   */
  actor: () => Actor | Promise<Actor>;
  /** The application context for that actor. */
  context: (actor: Actor) => TContext | Promise<TContext>;
  /**
   * Longest single wait for a decision or resolution message before the journal or coordinator is read again.
   * @default 60_000
   */
  approvalPollMs?: number;
  /**
   * Waiting out an `outcome-unknown` for the application's resolution.
   * @default { wait: true, maxWaitMs: 604_800_000 } (7 days)
   */
  unknown?: { wait: boolean; maxWaitMs?: number };
  /**
   * Lets tests run on the in-memory journal, which forgets everything on restart.
   * @default false
   */
  allowNonDurableJournal?: boolean;
};

/**
 * Durable workflow steps that invoke capabilities through the journaled invocation service on DBOS Transact
 * (docs/architecture/spec/distributed.md#distributed-9-2). DBOS schedules, persists and replays; the invocation service claims, fences and
 * journals each call; core governs it (ADR-007). Surface: always `"workflow"`.
 *
 * @example
 * import { DBOS } from "@dbos-inc/dbos-sdk";
 * import { createAgentRuntime, type Actor, type AgentGovernance, type ApprovalCoordinator } from "@orpc-agent/core";
 * import { ConfigurationError } from "@orpc-agent/core/adapter";
import type { InvocationService } from "@orpc-agent/core/server";
 * import { createDBOSCapabilitySteps } from "@orpc-agent/dbos";
 * declare const service: InvocationService, governance: AgentGovernance, coordinator: ApprovalCoordinator;
 * declare function loadActor(userId: string): Promise<Actor>;
 * const steps = createDBOSCapabilitySteps({
 *   service,                                            // createInvocationService({ journal: createPgInvocationJournal(...), ... })
 *   runtime: () => createAgentRuntime({ governance, approvals: { coordinator } }),
 *   actor: () => loadActor(DBOS.authenticatedUser),     // the workflow's persisted initiating identity
 *   context: (actor) => ({ tenant: actor.attributes?.tenant }),
 * });
 * const refundWorkflow = DBOS.registerWorkflow(async (orderId: string) =>
 *   steps.invoke("orders.refund", { orderId }, { key: "refund" }), { name: "refundWorkflow" });
 */
export function createDBOSCapabilitySteps<TContext>(o: DBOSCapabilityStepsOptions<TContext>): DBOSCapabilitySteps {
  const s = validatedState(o);
  return Object.freeze({
    invoke: <O = unknown>(capabilityId: string, input: unknown, options: Parameters<DBOSCapabilitySteps["invoke"]>[2]) =>
      invokeInWorkflow<TContext, O>(s, capabilityId, input, options),
    wake: (target: Parameters<DBOSCapabilitySteps["wake"]>[0]) => wakeWorkflow(s, target),
  });
}

function validatedState<TContext>(o: DBOSCapabilityStepsOptions<TContext>): StepsState<TContext> {
  const example = "createDBOSCapabilitySteps({ service, runtime, actor, context })";
  if (typeof o !== "object" || o === null) throw new ConfigurationError(`createDBOSCapabilitySteps needs options: ${example}.`);
  const service = o.service as unknown as Partial<Record<string, unknown>> | undefined;
  if (typeof service !== "object" || service === null || ["invoke", "resume", "get", "list"].some((m) => typeof service[m] !== "function")) {
    throw new ConfigurationError("createDBOSCapabilitySteps: service must be an InvocationService (createInvocationService from @orpc-agent/core/server).");
  }
  if (o.allowNonDurableJournal !== undefined && typeof o.allowNonDurableJournal !== "boolean") {
    throw new ConfigurationError("createDBOSCapabilitySteps: allowNonDurableJournal must be a boolean.");
  }
  if (o.service.durable !== true && o.allowNonDurableJournal !== true) {
    throw new ConfigurationError(
      "createDBOSCapabilitySteps: the invocation service's journal is not durable, so a restarted workflow could run an effect twice. " +
        "Use a durable journal (e.g. createPgInvocationJournal from @orpc-agent/postgres); allowNonDurableJournal: true is for tests only.",
    );
  }
  for (const name of ["runtime", "actor", "context"] as const) {
    if (typeof o[name] !== "function") throw new ConfigurationError(`createDBOSCapabilitySteps: ${name} must be a function (${example}).`);
  }
  const approvalPollMs = o.approvalPollMs ?? DEFAULT_APPROVAL_POLL_MS;
  if (!isPositiveFinite(approvalPollMs)) throw new ConfigurationError("createDBOSCapabilitySteps: approvalPollMs must be a finite number > 0.");
  const unknown = o.unknown ?? { wait: true };
  if (typeof unknown !== "object" || unknown === null || typeof unknown.wait !== "boolean") {
    throw new ConfigurationError("createDBOSCapabilitySteps: unknown must be { wait: boolean, maxWaitMs?: number }.");
  }
  const unknownMaxWaitMs = unknown.maxWaitMs ?? DEFAULT_UNKNOWN_MAX_WAIT_MS;
  if (!isPositiveFinite(unknownMaxWaitMs)) throw new ConfigurationError("createDBOSCapabilitySteps: unknown.maxWaitMs must be a finite number > 0.");
  return {
    service: o.service,
    runtime: o.runtime,
    actor: o.actor,
    context: o.context,
    approvalPollMs,
    unknownWait: unknown.wait,
    unknownMaxWaitMs,
  };
}

function isPositiveFinite(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value) && value > 0;
}
