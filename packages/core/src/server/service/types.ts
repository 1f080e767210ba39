import type { AuditActorRef } from "../../audit/types.js";
import type { Actor, ExposureSurface } from "../../vocabulary/types.js";
import type { DescribeResponse, ReconcileResult, RemoteExecutionResult, RemoteSurface } from "../../client/types.js";
import type { AgentRuntime, DescribeScope, ExecutionOptions } from "../../runtime/types.js";
import type { ToolNaming } from "../descriptors/tool-names.js";
import type { InvocationJournal, InvocationRecord, InvocationState } from "../journal/types.js";

/** Options of `createInvocationService`. */
export type InvocationServiceOptions = {
  journal: InvocationJournal;
  /** Scopes invocation ids; fixed by the server, never sent. */
  namespace: string;
  /** The application's deployment identifier; part of every descriptor digest, never sent. */
  revision: string;
  /**
   * Claim lease; renewed every `leaseMs / 3` while the worker lives.
   * @default 30_000
   */
  leaseMs?: number;
  /**
   * Completed outputs larger than this are journaled without the output.
   * @default 262_144
   */
  maxStoredOutputBytes?: number;
  /** Per surface, as that adapter's `toolNaming` (docs/architecture/spec/distributed.md#distributed-2-2). */
  toolNaming?: ToolNaming;
  /** Payload-free journal events (SI-10); they go here, never to audit sinks. */
  onEvent?: (e: InvocationEvent) => void;
  /**
   * Lease instants and record timestamps; never drives timers.
   * @default () => new Date()
   */
  now?: () => Date;
};

export type InvocationEventType =
  | "claimed"
  | "replayed"
  | "conflict"
  | "stale_descriptor"
  | "outcome_unknown"
  | "fenced_out"
  | "stale_settlement"
  | "settlement_failed"
  | "resolved";

export type InvocationEvent = {
  type: InvocationEventType;
  timestamp: Date;
  invocationId: string;
  capabilityId: string;
  surface: ExposureSurface;
  actor: AuditActorRef;
  data?: Record<string, string | number | boolean>;
};

/** What the application (never a remote caller) asserts about an effect whose outcome was unknown (docs/architecture/spec/distributed.md#distributed-5-5). */
export type ResolveArgs = {
  expectedFence: number;
  by: Actor;
  note?: string;
  resolution:
    | { kind: "applied"; output?: unknown }
    | { kind: "failed"; publicMessage?: string }
    | { kind: "not-applied" };
};

export type ServiceInvokeOptions<C> = {
  actor: Actor;
  context: C;
  surface: ExposureSurface;
  invocationId: string;
  correlationId?: string;
  expectedDigest?: string;
  signal?: AbortSignal;
} & StreamHooks;

export type ServiceResumeOptions<C> = { actor: Actor; context: C; surface: ExposureSurface; invocationId: string; signal?: AbortSignal } & StreamHooks;

/**
 * Handed to the runtime as they are: a streaming capability's events (`onEvent`, with its backpressure) and any
 * capability's progress (`onProgress`). The journal records the terminal outcome only; a replay has no events.
 */
export type StreamHooks = Pick<ExecutionOptions, "onEvent" | "onProgress">;

/**
 * A journal row as the service reports it, with the effect key the procedure received as
 * `context.agent.idempotencyKey`: match an `unknown` row to the domain's own record by it (or by `invocationId`).
 */
export type InvocationServiceRecord = InvocationRecord & { idempotencyKey: string };

export interface InvocationService {
  readonly namespace: string;
  readonly durable: boolean;
  describe<C>(rt: AgentRuntime<C>, o: { actor: Actor; context: C; surface: RemoteSurface; scope?: DescribeScope }): Promise<DescribeResponse>;
  invoke<C, O = unknown>(rt: AgentRuntime<C>, capabilityId: string, input: unknown, o: ServiceInvokeOptions<C>): Promise<RemoteExecutionResult<O>>;
  resume<C, O = unknown>(rt: AgentRuntime<C>, approvalId: string, o: ServiceResumeOptions<C>): Promise<RemoteExecutionResult<O>>;
  reconcile<O = unknown>(invocationId: string, o: { actor: Actor; surface: ExposureSurface }): Promise<ReconcileResult<O>>;
  get(id: string): Promise<InvocationServiceRecord | null>;
  list(f?: { state?: InvocationState; updatedBefore?: Date; limit?: number }): Promise<InvocationServiceRecord[]>;
  resolve(id: string, a: ResolveArgs): Promise<InvocationRecord>;
}
